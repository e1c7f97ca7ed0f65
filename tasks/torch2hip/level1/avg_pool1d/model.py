# The avg_pool1d task: 1-D average pooling over [N, C, L] activations with a kernel size, stride
# and zero padding that counts in the divisor (count_include_pad=True). Runs on torch 1.13 and
# later, on CPU and GPU.
import torch
import torch.nn.functional as F


class AvgPool1d(torch.nn.Module):
    """The baseline: F.avg_pool1d, as nn.AvgPool1d(K, S, P) runs it (count_include_pad=True is
    PyTorch's default)."""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.kernel, self.stride, self.padding = int(kernel), int(stride), int(padding)

    def forward(self, x):
        return F.avg_pool1d(x, self.kernel, self.stride, self.padding, ceil_mode=False,
                            count_include_pad=True)


class AvgPool1dRef(torch.nn.Module):
    """The reference, written out from the definition in f64: pad both ends of each row with P
    zeros, sum every window of K values starting at multiples of S, divide by K, round once to
    f32."""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.kernel, self.stride, self.padding = int(kernel), int(stride), int(padding)

    def forward(self, x):
        p = self.padding
        xp = F.pad(x.double(), (p, p), mode="constant", value=0.0)
        windows = xp.unfold(-1, self.kernel, self.stride)  # [N, C, Lout, K]
        return (windows.sum(dim=-1) / self.kernel).to(x.dtype)
