# A softmax and a max over one dimension, chosen by an init arg: two outputs, one of them reduced.
import torch


class Model(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.softmax(x, dim=self.dim), torch.amax(x, dim=self.dim)


def get_inputs():
    return [torch.randn(2, 10, 33)]


def get_init_inputs():
    return [2]
