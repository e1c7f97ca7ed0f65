# The sum_dim task: the sum over the middle axis of a [B, R, C] tensor.
# Runs on torch 1.13 and later, on CPU and GPU.
import torch


class SumDim(torch.nn.Module):
    """The baseline: torch.sum over dim 1, in f32."""

    def forward(self, x):
        return torch.sum(x, dim=1)


class SumDimRef(torch.nn.Module):
    """The reference: the same sum accumulated in f64, rounded once to f32."""

    def forward(self, x):
        return x.double().sum(dim=1).to(x.dtype)
