# The log_softmax_f16 task: log-softmax over the last dim of f16 logits, computed in f32. Runs on
# torch 1.13 and later, on CPU and GPU.
import torch
import torch.nn.functional as F


class LogSoftmaxF16(torch.nn.Module):
    """The baseline: log_softmax as mixed-precision PyTorch runs it, widened to f32 (autocast
    runs log_softmax in f32; torch 1.13's CPU kernel has no f16 version) and rounded back."""

    def forward(self, x):
        return F.log_softmax(x, dim=-1, dtype=torch.float32).to(x.dtype)


class LogSoftmaxF16Ref(torch.nn.Module):
    """The reference, from the definition in f64 and in the log domain:
    y = (x - m) - log(sum_j exp(x_j - m)), m the row maximum. Rounded once to f16."""

    def forward(self, x):
        xd = x.double()
        m = xd.max(dim=-1, keepdim=True).values
        s = torch.exp(xd - m).sum(dim=-1, keepdim=True)
        return ((xd - m) - torch.log(s)).to(x.dtype)
