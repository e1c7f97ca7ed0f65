# Broken on purpose: get_inputs() holds a plain int, which kta cannot pass to forward.
import torch


class Model(torch.nn.Module):
    def forward(self, x, k):
        return x * k


def get_inputs():
    return [torch.randn(4, 5), 3]


def get_init_inputs():
    return []
