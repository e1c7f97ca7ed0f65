# The mlp_gelu task: one fused MLP layer, y = GELU(x @ w^T + b) with the exact (erf) GELU.
# Weights are task inputs (drawn by kta), not parameters created here, so a HIP candidate sees the
# same values. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class MlpGelu(torch.nn.Module):
    """The baseline: what a PyTorch model runs (a linear layer, then an exact GELU)."""

    def forward(self, x, w, b):
        return F.gelu(F.linear(x, w, b))


def mlp_gelu_ref(x, w, b):
    """The reference: the same math in f64, rounded once to the output dtype."""
    return F.gelu(F.linear(x.double(), w.double(), b.double())).to(x.dtype)
