# The matmul_rowsum task: a linear layer whose output features are summed per row,
# y = sum(x @ w^T + b, dim=1). Weights are task inputs. Runs on torch 1.13 and later, on CPU and
# GPU.
import torch
import torch.nn.functional as F


class MatmulRowsum(torch.nn.Module):
    """The baseline: a linear layer, then a sum over its output features."""

    def forward(self, x, w, b):
        return torch.sum(F.linear(x, w, b), dim=1)


class MatmulRowsumRef(torch.nn.Module):
    """The reference, the same math in f64: every output feature, then their sum; rounded once to
    the output dtype."""

    def forward(self, x, w, b):
        z = torch.matmul(x.double(), w.double().t()) + b.double()
        return z.sum(dim=1).to(x.dtype)
