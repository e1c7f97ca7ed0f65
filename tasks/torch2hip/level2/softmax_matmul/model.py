# The softmax_matmul task: y = softmax(s, dim=-1) @ v over a batch, the second half of attention
# with the scores given (e.g. precomputed with a bias). Runs on torch 1.13 and later, on CPU
# and GPU.
import torch


class SoftmaxMatmul(torch.nn.Module):
    """The baseline: a softmax over the last dimension, then a batched matmul."""

    def forward(self, s, v):
        return torch.matmul(torch.softmax(s, dim=-1), v)


class SoftmaxMatmulRef(torch.nn.Module):
    """The reference, written out from the definition in f64: p = exp(s - max) / sum exp(s - max)
    over each row, then y = p @ v; rounded once to the output dtype."""

    def forward(self, s, v):
        sd = s.double()
        e = torch.exp(sd - sd.max(dim=-1, keepdim=True).values)
        p = e / e.sum(dim=-1, keepdim=True)
        return torch.bmm(p, v.double()).to(s.dtype)
