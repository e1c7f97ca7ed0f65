# The softmax_dim1 task: softmax over the channel axis (dim 1) of a [B, C, L] f32 tensor, e.g.
# per-pixel class probabilities of a segmentation head. Runs on torch 1.13 and later, CPU and GPU.
import torch
import torch.nn.functional as F


class SoftmaxDim1(torch.nn.Module):
    """The baseline: what a PyTorch model runs (torch.nn.functional.softmax over dim 1)."""

    def forward(self, x):
        return F.softmax(x, dim=1)


class SoftmaxDim1Ref(torch.nn.Module):
    """The reference, from the definition in f64: y = exp(x - m) / sum_c exp(x - m) with m the
    maximum over dim 1 (m cancels; it only keeps exp in range). Rounded once to the output
    dtype."""

    def forward(self, x):
        xd = x.double()
        m = xd.max(dim=1, keepdim=True).values
        e = torch.exp(xd - m)
        return (e / e.sum(dim=1, keepdim=True)).to(x.dtype)
