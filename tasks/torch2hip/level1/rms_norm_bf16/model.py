# The rms_norm_bf16 task: RMS normalization with a learned per-feature weight over bf16 rows, as
# in LLaMA-style transformer blocks. torch 1.13 has no F.rms_norm, so the baseline spells it in
# PyTorch ops as model code does. Runs on torch 1.13 and later, on CPU and GPU.
import torch


class RmsNormBf16(torch.nn.Module):
    """The baseline: RMSNorm as a model writes it, in f32 on bf16 activations (square, mean,
    rsqrt, scale, weight), rounded back to bf16 once."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, weight):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return (h * weight.float()).to(x.dtype)


class RmsNormBf16Ref(torch.nn.Module):
    """The reference: y = x / sqrt(sum_k x^2 / N + eps) * weight in f64, rounded once to bf16."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, weight):
        xd = x.double()
        ms = (xd * xd).sum(dim=-1, keepdim=True) / xd.shape[-1]
        y = xd / torch.sqrt(ms + self.eps) * weight.double()
        return y.to(x.dtype)
