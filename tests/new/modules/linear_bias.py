# A matmul with a bias, in the common benchmark convention: the layer's weights are created by
# Model from its init args (in_features, out_features).
import torch


class Model(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = torch.nn.Linear(in_features, out_features)

    def forward(self, x):
        return self.linear(x)


def get_inputs():
    return [torch.randn(8, 48)]


def get_init_inputs():
    return [48, 24]
