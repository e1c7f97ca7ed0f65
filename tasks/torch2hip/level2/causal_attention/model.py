# The causal_attention task: single-head causal self-attention over a batch of heads,
# softmax(q k^T / sqrt(D) + causal mask) v, written out explicitly (no fused attention API, which
# torch 1.13 does not have). Runs on torch 1.13 and later, on CPU and GPU.
import math

import torch


def _attention(q, k, v, scale):
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    s = q.shape[-2]
    future = torch.ones(s, s, dtype=torch.bool, device=q.device).triu(diagonal=1)
    scores = scores.masked_fill(future, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


class CausalAttention(torch.nn.Module):
    """The baseline: attention as a PyTorch model writes it, in the inputs' dtype."""

    def __init__(self, head_dim):
        super().__init__()
        self.scale = 1.0 / math.sqrt(head_dim)

    def forward(self, q, k, v):
        return _attention(q, k, v, self.scale)


class CausalAttentionRef(CausalAttention):
    """The reference: the same math in f64, rounded once to the output dtype."""

    def forward(self, q, k, v):
        return _attention(q.double(), k.double(), v.double(), self.scale).to(q.dtype)
