# The layernorm_gelu task: y = gelu(layer_norm(x, weight, bias, eps)) over the rows of an f32
# matrix, the exact (erf) GELU. Weights are task inputs (drawn by kta). Runs on torch 1.13 and
# later, on CPU and GPU.
import math

import torch
import torch.nn.functional as F


class LayerNormGelu(torch.nn.Module):
    """The baseline: what a PyTorch model runs, a layer norm kernel that writes its output, then
    a GELU kernel that reads it back."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, weight, bias):
        return F.gelu(F.layer_norm(x, (x.shape[-1],), weight, bias, self.eps))


class LayerNormGeluRef(torch.nn.Module):
    """The reference, written out in f64: two-pass mean and biased variance, z = (x - mean) /
    sqrt(var + eps) * weight + bias, y = z / 2 * erfc(-z / sqrt(2)) (= z / 2 * (1 + erf(z /
    sqrt(2))) without cancellation for negative z), rounded once to f32."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, weight, bias):
        xd = x.double()
        mean = xd.mean(dim=-1, keepdim=True)
        var = ((xd - mean) ** 2).mean(dim=-1, keepdim=True)
        z = (xd - mean) / torch.sqrt(var + self.eps) * weight.double() + bias.double()
        return (0.5 * z * torch.erfc(-z / math.sqrt(2.0))).to(x.dtype)
