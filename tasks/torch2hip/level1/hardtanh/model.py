# The hardtanh task: clamp to [min_val, max_val] over a 2-D f32 tensor. Runs on torch 1.13 and
# later, on CPU and GPU.
import torch
import torch.nn.functional as F


class Hardtanh(torch.nn.Module):
    """The baseline: what a PyTorch model runs (torch.nn.functional.hardtanh)."""

    def __init__(self, min_val, max_val):
        super().__init__()
        self.min_val = float(min_val)
        self.max_val = float(max_val)

    def forward(self, x):
        return F.hardtanh(x, self.min_val, self.max_val)


class HardtanhRef(torch.nn.Module):
    """The reference, from the definition: y = min_val where x < min_val, max_val where
    x > max_val, else x (exact in any precision)."""

    def __init__(self, min_val, max_val):
        super().__init__()
        self.min_val = float(min_val)
        self.max_val = float(max_val)

    def forward(self, x):
        xd = x.double()
        lo = torch.full_like(xd, self.min_val)
        hi = torch.full_like(xd, self.max_val)
        return torch.where(xd < lo, lo, torch.where(xd > hi, hi, xd)).to(x.dtype)
