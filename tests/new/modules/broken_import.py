# Broken on purpose: imports a module that does not exist.
import torch
import kta_no_such_module  # noqa: F401


class Model(torch.nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return [torch.randn(4)]
