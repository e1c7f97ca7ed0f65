# The dw_separable_block task: a MobileNet depthwise-separable block in inference form,
# relu(bn2(pointwise1x1(relu(bn1(depthwise3x3(x)))))) over NCHW f32, the batch norms with their
# running statistics. All weights and statistics are task inputs (drawn by kta). Runs on torch
# 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class DwSeparableBlock(torch.nn.Module):
    """The baseline: what a PyTorch model runs in eval mode, six kernels (a depthwise conv, a
    batch norm, a ReLU, a 1x1 conv, a batch norm, a ReLU), each writing its activation to
    memory. cuDNN may use TF32 for f32 convolutions by default, which is not the f32 this task
    asks for; the baseline turns that off for its own call."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, dw_weight, bn1_mean, bn1_var, bn1_weight, bn1_bias, pw_weight, bn2_mean,
                bn2_var, bn2_weight, bn2_bias):
        with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
            a = F.conv2d(x, dw_weight, stride=1, padding=1, groups=x.shape[1])
            a = F.relu(F.batch_norm(a, bn1_mean, bn1_var, bn1_weight, bn1_bias, False, 0.0,
                                    self.eps))
            y = F.conv2d(a, pw_weight)
            return F.relu(F.batch_norm(y, bn2_mean, bn2_var, bn2_weight, bn2_bias, False, 0.0,
                                       self.eps))


class DwSeparableBlockRef(torch.nn.Module):
    """The reference, written out in f64: the depthwise 3x3 as nine shifted products over a
    zero-padded image, each batch norm as (v - mean) / sqrt(var + eps) * weight + bias, the
    pointwise conv as a sum over channels; rounded once to f32."""

    def __init__(self, eps):
        super().__init__()
        self.eps = float(eps)

    def forward(self, x, dw_weight, bn1_mean, bn1_var, bn1_weight, bn1_bias, pw_weight, bn2_mean,
                bn2_var, bn2_weight, bn2_bias):
        n, c, h, w = x.shape
        xp = F.pad(x.double(), (1, 1, 1, 1))
        dw = dw_weight.double().reshape(c, 3, 3)
        a = xp.new_zeros((n, c, h, w))
        for dy in range(3):
            for dx in range(3):
                a += xp[:, :, dy:dy + h, dx:dx + w] * dw[:, dy, dx].reshape(1, c, 1, 1)

        def bn(v, mean, var, weight, bias):
            shape = (1, -1, 1, 1)
            return ((v - mean.double().reshape(shape)) / torch.sqrt(var.double().reshape(shape)
                    + self.eps) * weight.double().reshape(shape) + bias.double().reshape(shape))

        a = torch.clamp(bn(a, bn1_mean, bn1_var, bn1_weight, bn1_bias), min=0.0)
        pw = pw_weight.double().reshape(pw_weight.shape[0], c)
        y = torch.einsum("kc,nchw->nkhw", pw, a)
        y = torch.clamp(bn(y, bn2_mean, bn2_var, bn2_weight, bn2_bias), min=0.0)
        return y.to(x.dtype)
