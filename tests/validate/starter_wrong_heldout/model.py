# The starter_wrong_heldout corpus task: y = 2 x + 1.
import torch


class Affine(torch.nn.Module):
    def forward(self, x):
        return 2 * x + 1


class AffineRef(torch.nn.Module):
    def forward(self, x):
        return (2 * x.double() + 1).to(x.dtype)
