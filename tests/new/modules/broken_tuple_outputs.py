# Broken on purpose: forward returns a tuple of plain numbers, not tensors.
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        return (x.numel(), float(x.sum()))


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
