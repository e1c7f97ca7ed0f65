# The relu task: the rectified linear unit over a 2-D f32 activation tensor. Runs on torch 1.13
# and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class Relu(torch.nn.Module):
    """The baseline: what a PyTorch model runs (torch.nn.functional.relu)."""

    def forward(self, x):
        return F.relu(x)


class ReluRef(torch.nn.Module):
    """The reference, from the definition: y = x where x > 0, else 0 (exact in any precision)."""

    def forward(self, x):
        xd = x.double()
        return torch.where(xd > 0, xd, torch.zeros_like(xd)).to(x.dtype)
