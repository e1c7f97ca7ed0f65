# The linear_relu_scale task: a linear layer, a ReLU and a constant scale, y = relu(x @ w^T + b) * s.
# Weights are task inputs (drawn by kta), not parameters created here, so a HIP candidate sees the
# same values. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class LinearReluScale(torch.nn.Module):
    """The baseline: what a PyTorch model runs (a linear layer, a ReLU, a multiply)."""

    def __init__(self, scale):
        super().__init__()
        self.scale = float(scale)

    def forward(self, x, w, b):
        return F.relu(F.linear(x, w, b)) * self.scale


class LinearReluScaleRef(torch.nn.Module):
    """The reference, written out from the definition in f64: the dot products as a matmul,
    max(z, 0), the scale; rounded once to the output dtype."""

    def __init__(self, scale):
        super().__init__()
        self.scale = float(scale)

    def forward(self, x, w, b):
        z = torch.matmul(x.double(), w.double().t()) + b.double()
        return (torch.clamp(z, min=0.0) * self.scale).to(x.dtype)
