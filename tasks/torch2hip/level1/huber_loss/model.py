# The huber_loss task: the Huber loss between predictions and targets, reduced to one scalar.
# Runs on torch 1.13 and later (F.huber_loss exists since 1.9), on CPU and GPU.
import torch
import torch.nn.functional as F


class HuberLoss(torch.nn.Module):
    """The baseline: PyTorch's huber_loss with reduction='mean'."""

    def __init__(self, delta):
        super().__init__()
        self.delta = float(delta)

    def forward(self, x, target):
        return F.huber_loss(x, target, reduction="mean", delta=self.delta)


class HuberLossRef(torch.nn.Module):
    """The reference, written out from the definition in f64: 0.5 d^2 where |d| < delta, else
    delta (|d| - delta / 2), summed over every element and divided by the element count,
    rounded once to f32."""

    def __init__(self, delta):
        super().__init__()
        self.delta = float(delta)

    def forward(self, x, target):
        a = (x.double() - target.double()).abs()
        dl = self.delta
        per = torch.where(a < dl, 0.5 * a * a, dl * (a - 0.5 * dl))
        return (per.sum() / a.numel()).to(x.dtype)
