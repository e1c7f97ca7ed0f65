# The softplus task: softplus with a sharpness beta and a linear cutoff above a threshold, over a
# 2-D f32 tensor. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class Softplus(torch.nn.Module):
    """The baseline: what a PyTorch model runs (torch.nn.functional.softplus)."""

    def __init__(self, beta, threshold):
        super().__init__()
        self.beta = float(beta)
        self.threshold = float(threshold)

    def forward(self, x):
        return F.softplus(x, beta=self.beta, threshold=self.threshold)


class SoftplusRef(torch.nn.Module):
    """The reference, from the definition in f64: y = x where beta x > threshold, else
    log(1 + exp(beta x)) / beta, with log1p so that the tail exp(beta x) / beta keeps its
    digits. Rounded once to the output dtype."""

    def __init__(self, beta, threshold):
        super().__init__()
        self.beta = float(beta)
        self.threshold = float(threshold)

    def forward(self, x):
        xd = x.double()
        bx = self.beta * xd
        soft = torch.log1p(torch.exp(torch.clamp(bx, max=self.threshold))) / self.beta
        return torch.where(bx > self.threshold, xd, soft).to(x.dtype)
