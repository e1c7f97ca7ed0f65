# The mlp_block task: a transformer MLP block with pre-norm and a residual connection,
# y = x + fc2(gelu(fc1(layer_norm(x)))), exact (erf) GELU, all f32. Weights and biases are task
# inputs (drawn by kta), not parameters created here, so a HIP candidate sees the same values.
# Runs on torch 1.13 and later, on CPU and GPU.
import math

import torch
import torch.nn.functional as F


class MlpBlock(torch.nn.Module):
    """The baseline: the block as a PyTorch model writes it (layer_norm, two linear layers, an
    exact GELU and the residual add), in f32."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, ln_w, ln_b, w1, b1, w2, b2):
        h = F.layer_norm(x, (x.shape[-1],), ln_w, ln_b, self.eps)
        h = F.gelu(F.linear(h, w1, b1))
        return x + F.linear(h, w2, b2)


class MlpBlockRef(torch.nn.Module):
    """The reference, written out from the definitions in f64 and rounded once to f32: two-pass
    mean and biased variance, matrix products, GELU as 0.5 z erfc(-z / sqrt(2)) (no cancellation
    for negative z)."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, ln_w, ln_b, w1, b1, w2, b2):
        xd = x.double()
        mean = xd.mean(dim=-1, keepdim=True)
        var = ((xd - mean) ** 2).mean(dim=-1, keepdim=True)
        n = (xd - mean) / torch.sqrt(var + self.eps) * ln_w.double() + ln_b.double()
        z = n @ w1.double().t() + b1.double()
        g = 0.5 * z * torch.erfc(-z / math.sqrt(2.0))
        y = xd + g @ w2.double().t() + b2.double()
        return y.to(x.dtype)
