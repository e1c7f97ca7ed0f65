# The swiglu_gate task: the gated half of a SwiGLU feed-forward layer (LLaMA-style),
# y = silu(x @ wg^T) * (x @ wu^T), two bias-free linear layers sharing their input. Weights are
# task inputs (drawn by kta), not parameters created here, so a HIP candidate sees the same
# values. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class SwigluGate(torch.nn.Module):
    """The baseline: what a PyTorch model runs, two GEMMs, a SiLU and a product (four kernels,
    the two [T, F] projections written to memory and read back)."""

    def forward(self, x, wg, wu):
        return F.silu(F.linear(x, wg)) * F.linear(x, wu)


class SwigluGateRef(torch.nn.Module):
    """The reference, written out in f64: g = x wg^T, u = x wu^T, y = g / (1 + exp(-g)) * u,
    rounded once to f32."""

    def forward(self, x, wg, wu):
        xd = x.double()
        g = xd @ wg.double().t()
        u = xd @ wu.double().t()
        return (g / (1.0 + torch.exp(-g)) * u).to(x.dtype)
