# The conv2d_3x3 task: a 3x3 convolution with bias, NCHW, stride 1, zero padding 1 ("same"
# output size). Weights are task inputs. Runs on torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class Conv3x3(torch.nn.Module):
    """The baseline: PyTorch's conv2d (oneDNN on CPU, cuDNN on GPU). PyTorch lets cuDNN use TF32
    for f32 convolutions by default, which is not the f32 this task asks for (its errors are
    ~50x the tolerance); the baseline turns that off for its own call."""

    def forward(self, x, w, b):
        with torch.backends.cudnn.flags(enabled=True, allow_tf32=False):
            return F.conv2d(x, w, b, stride=1, padding=1)


class Conv3x3Ref(torch.nn.Module):
    """The reference: the convolution in f64, rounded once to the output dtype."""

    def forward(self, x, w, b):
        return F.conv2d(x.double(), w.double(), b.double(), stride=1, padding=1).to(x.dtype)
