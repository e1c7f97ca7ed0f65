# The max_pool1d task: 1-D max pooling over [N, C, L] activations with a kernel size, stride
# and zero-width padding that counts as -inf. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class MaxPool1d(torch.nn.Module):
    """The baseline: F.max_pool1d, as nn.MaxPool1d(K, S, P) runs it."""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.kernel, self.stride, self.padding = int(kernel), int(stride), int(padding)

    def forward(self, x):
        return F.max_pool1d(x, self.kernel, self.stride, self.padding)


class MaxPool1dRef(torch.nn.Module):
    """The reference, written out from the definition: pad both ends of each row with P values
    of -inf, take every window of K values starting at multiples of S, keep the maximum. The
    maximum is exact in any precision; the f64 round trip only guards the comparison."""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.kernel, self.stride, self.padding = int(kernel), int(stride), int(padding)

    def forward(self, x):
        p = self.padding
        xp = F.pad(x.double(), (p, p), mode="constant", value=float("-inf"))
        windows = xp.unfold(-1, self.kernel, self.stride)  # [N, C, Lout, K]
        return windows.max(dim=-1).values.to(x.dtype)
