# The silu_bf16 task: SiLU (swish) over a 2-D bf16 activation tensor. Runs on torch 1.13 and
# later, on CPU and GPU.
import torch
import torch.nn.functional as F


class SiluBF16(torch.nn.Module):
    """The baseline: what a bf16 PyTorch model runs (torch.nn.functional.silu on the bf16
    tensor; on a GPU PyTorch computes it in f32 and rounds once)."""

    def forward(self, x):
        return F.silu(x)


class SiluBF16Ref(torch.nn.Module):
    """The reference, from the definition in f64: y = x * sigmoid(x) = x / (1 + exp(-x)),
    rounded once to bf16."""

    def forward(self, x):
        xd = x.double()
        return (xd / (1.0 + torch.exp(-xd))).to(x.dtype)
