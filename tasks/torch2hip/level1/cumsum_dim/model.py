# The cumsum_dim task: the inclusive prefix sum along the last axis of an [M, N] matrix.
# Runs on torch 1.13 and later, on CPU and GPU.
import torch


class CumsumDim(torch.nn.Module):
    """The baseline: torch.cumsum over the last dim, in f32."""

    def forward(self, x):
        return torch.cumsum(x, dim=-1)


class CumsumDimRef(torch.nn.Module):
    """The reference: the prefix sum accumulated in f64 (relative error ~1e-16 per add, far
    below any f32 scan), rounded once to f32."""

    def forward(self, x):
        return torch.cumsum(x.double(), dim=-1).to(x.dtype)
