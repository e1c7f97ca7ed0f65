# The max_pool2d_dilated task: 2-D max pooling over NCHW activations with a square K x K window,
# stride, padding (counting as -inf) and dilation (the window's taps D apart). Runs on torch 1.13
# and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class MaxPool2dDilated(torch.nn.Module):
    """The baseline: F.max_pool2d, as nn.MaxPool2d(K, S, P, dilation=D) runs it."""

    def __init__(self, kernel, stride, padding, dilation):
        super().__init__()
        self.kernel, self.stride = int(kernel), int(stride)
        self.padding, self.dilation = int(padding), int(dilation)

    def forward(self, x):
        return F.max_pool2d(x, self.kernel, self.stride, self.padding, self.dilation)


class MaxPool2dDilatedRef(torch.nn.Module):
    """The reference, written out from the definition: pad each plane with P rows and columns
    of -inf, gather every K x K window of taps D apart whose corner is at multiples of S (by
    F.unfold on the padded planes), keep the maximum. The maximum is exact in any precision."""

    def __init__(self, kernel, stride, padding, dilation):
        super().__init__()
        self.kernel, self.stride = int(kernel), int(stride)
        self.padding, self.dilation = int(padding), int(dilation)

    def forward(self, x):
        n, c, h, w = x.shape
        k, s, p, d = self.kernel, self.stride, self.padding, self.dilation
        ho = (h + 2 * p - d * (k - 1) - 1) // s + 1
        wo = (w + 2 * p - d * (k - 1) - 1) // s + 1
        xp = F.pad(x.double(), (p, p, p, p), mode="constant", value=float("-inf"))
        cols = F.unfold(xp.reshape(n * c, 1, h + 2 * p, w + 2 * p), k, dilation=d, stride=s)
        y = cols.max(dim=1).values  # [n * c, ho * wo]
        return y.reshape(n, c, ho, wo).to(x.dtype)
