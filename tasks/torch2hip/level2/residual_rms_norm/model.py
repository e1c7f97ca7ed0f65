# The residual_rms_norm task: a pre-norm transformer's residual add followed by RMSNorm,
# h = x + residual (the new residual stream, an output), y = h * rsqrt(mean(h^2) + eps) * weight.
# Runs on torch 1.13 and later (no F.rms_norm there), on CPU and GPU.
import torch


class ResidualRmsNorm(torch.nn.Module):
    """The baseline: what a PyTorch model runs (the residual add, then RMSNorm written out as
    LLaMA's reference code does): an add kernel, then reductions and elementwise kernels that
    re-read h."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, residual, weight):
        h = x + residual
        y = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + self.eps) * weight
        return h, y


class ResidualRmsNormRef(torch.nn.Module):
    """The reference in f64: h = x + residual (exact in f64, so h rounds once to the correctly
    rounded f32 sum), y = h / sqrt(sum_k h_k^2 / N + eps) * weight, each rounded once to f32."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, residual, weight):
        h = x.double() + residual.double()
        ms = (h * h).sum(dim=-1, keepdim=True) / h.shape[-1]
        y = h / torch.sqrt(ms + self.eps) * weight.double()
        return h.to(x.dtype), y.to(x.dtype)
