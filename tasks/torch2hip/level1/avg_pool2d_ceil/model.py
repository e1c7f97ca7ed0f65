# The avg_pool2d_ceil task: 2-D average pooling over NCHW activations with ceil_mode=True (a
# last, partial window where floor mode would drop the remainder) and count_include_pad=False
# (the divisor is the number of real inputs in the window). Runs on torch 1.13 and later, on
# CPU and GPU.
import torch
import torch.nn.functional as F


def out_size(n, k, s, p):
    """PyTorch's ceil-mode output size: ceil((n + 2p - k) / s) + 1, minus one when the last
    window would start in the right padding (at or past n + p)."""
    o = -(-(n + 2 * p - k) // s) + 1
    if (o - 1) * s >= n + p:
        o -= 1
    return o


class AvgPool2dCeil(torch.nn.Module):
    """The baseline: F.avg_pool2d, as nn.AvgPool2d(K, S, P, ceil_mode=True,
    count_include_pad=False) runs it."""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.kernel, self.stride, self.padding = int(kernel), int(stride), int(padding)

    def forward(self, x):
        return F.avg_pool2d(x, self.kernel, self.stride, self.padding, ceil_mode=True,
                            count_include_pad=False)


class AvgPool2dCeilRef(torch.nn.Module):
    """The reference, written out from the definition in f64: zero-pad each plane (P rows and
    columns before, enough after for the last ceil-mode window), sum every K x K window with a
    ones kernel (conv2d with stride S), count the real inputs of each window the same way on a
    padded mask of ones, divide, round once to f32."""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.kernel, self.stride, self.padding = int(kernel), int(stride), int(padding)

    def forward(self, x):
        n, c, h, w = x.shape
        k, s, p = self.kernel, self.stride, self.padding
        ho, wo = out_size(h, k, s, p), out_size(w, k, s, p)
        extra_h = (ho - 1) * s + k - h - p  # padding after the plane, >= 0
        extra_w = (wo - 1) * s + k - w - p
        pad = (p, max(extra_w, 0), p, max(extra_h, 0))
        xd = F.pad(x.double().reshape(n * c, 1, h, w), pad, value=0.0)
        ones = F.pad(torch.ones(1, 1, h, w, dtype=torch.float64, device=x.device), pad, value=0.0)
        box = torch.ones(1, 1, k, k, dtype=torch.float64, device=x.device)
        sums = F.conv2d(xd, box, stride=s)[:, :, :ho, :wo]
        counts = F.conv2d(ones, box, stride=s)[:, :, :ho, :wo]
        return (sums / counts).reshape(n, c, ho, wo).to(x.dtype)
