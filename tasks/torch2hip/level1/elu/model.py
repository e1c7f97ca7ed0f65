# The elu task: the exponential linear unit with a scale alpha for the negative branch, over a
# 2-D f32 tensor. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class Elu(torch.nn.Module):
    """The baseline: what a PyTorch model runs (torch.nn.functional.elu)."""

    def __init__(self, alpha):
        super().__init__()
        self.alpha = float(alpha)

    def forward(self, x):
        return F.elu(x, alpha=self.alpha)


class EluRef(torch.nn.Module):
    """The reference, from the definition in f64: y = x where x > 0, else alpha (exp(x) - 1),
    evaluated with expm1 (no cancellation near 0). Rounded once to the output dtype."""

    def __init__(self, alpha):
        super().__init__()
        self.alpha = float(alpha)

    def forward(self, x):
        xd = x.double()
        return torch.where(xd > 0, xd, self.alpha * torch.expm1(xd)).to(x.dtype)
