# An elementwise op over two inputs of the same shape: out = a + alpha * b, alpha an init arg.
import torch


class Model(torch.nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, a, b):
        return a + self.alpha * b


def get_inputs():
    return [torch.randn(16, 40), torch.randn(16, 40)]


def get_init_inputs():
    return [0.5]
