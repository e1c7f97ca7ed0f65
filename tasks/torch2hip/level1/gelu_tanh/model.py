# The gelu_tanh task: GELU with the tanh approximation (GPT-2 / BERT style) over a 2-D f32
# activation tensor. Runs on torch 1.13 and later (approximate='tanh' exists since 1.12), CPU and
# GPU.
import math

import torch
import torch.nn.functional as F


class GeluTanh(torch.nn.Module):
    """The baseline: what a PyTorch model runs (torch.nn.functional.gelu, tanh approximation)."""

    def forward(self, x):
        return F.gelu(x, approximate="tanh")


class GeluTanhRef(torch.nn.Module):
    """The reference, from the definition in f64:
    y = 0.5 x (1 + tanh(u)),  u = sqrt(2 / pi) (x + 0.044715 x^3),
    evaluated through the identity 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2 u)), which has no
    cancellation for negative x (where 1 + tanh(u) is tiny). Rounded once to the output dtype."""

    def forward(self, x):
        xd = x.double()
        u = math.sqrt(2.0 / math.pi) * (xd + 0.044715 * xd * xd * xd)
        return (xd / (1.0 + torch.exp(-2.0 * u))).to(x.dtype)
