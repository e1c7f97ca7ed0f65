# The min_dim task: the minimum over the first axis of an [M, N] matrix.
# Runs on torch 1.13 and later, on CPU and GPU.
import torch


class MinDim(torch.nn.Module):
    """The baseline: torch.amin over dim 0."""

    def forward(self, x):
        return torch.amin(x, dim=0)


class MinDimRef(torch.nn.Module):
    """The reference, from the definition rather than through amin: the elementwise minimum of
    the M rows, folded pairwise (the first half of the rows against the second, log2 M steps) in
    f64. A minimum rounds nothing, so the result is exact."""

    def forward(self, x):
        y = x.double()
        while y.shape[0] > 1:
            h = y.shape[0] // 2
            y = torch.cat([torch.minimum(y[:h], y[h : 2 * h]), y[2 * h :]])
        return y[0].to(x.dtype)
