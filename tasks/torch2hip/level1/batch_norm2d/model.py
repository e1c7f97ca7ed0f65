# The batch_norm2d task: batch normalization in training mode over NCHW activations, with the
# statistics of the batch (not running estimates) and a learned per-channel scale and shift.
# Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class BatchNorm2d(torch.nn.Module):
    """The baseline: F.batch_norm in training mode, as nn.BatchNorm2d runs it during training
    (here without running statistics to update: only the output is the task's)."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, weight, bias):
        return F.batch_norm(x, None, None, weight, bias, training=True, momentum=0.1, eps=self.eps)


class BatchNorm2dRef(torch.nn.Module):
    """The reference, written out in f64: per channel c, over the N * H * W values of
    x[:, c, :, :], mean and biased variance (two passes); y = (x - mean) / sqrt(var + eps) *
    weight[c] + bias[c], rounded once to f32."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, weight, bias):
        xd = x.double()
        count = xd.shape[0] * xd.shape[2] * xd.shape[3]
        mean = xd.sum(dim=(0, 2, 3), keepdim=True) / count
        var = ((xd - mean) ** 2).sum(dim=(0, 2, 3), keepdim=True) / count
        w = weight.double().view(1, -1, 1, 1)
        b = bias.double().view(1, -1, 1, 1)
        y = (xd - mean) / torch.sqrt(var + self.eps) * w + b
        return y.to(x.dtype)
