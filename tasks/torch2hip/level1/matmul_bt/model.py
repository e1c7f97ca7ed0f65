# The matmul_bt task: C = A @ B^T with B stored [N, K] (one row per output feature, nn.Linear's
# weight layout), as F.linear without a bias computes it. Runs on torch 1.13 and later, on CPU
# and GPU.
import torch
import torch.nn.functional as F


class MatmulBt(torch.nn.Module):
    """The baseline: F.linear(a, b), i.e. a @ b.T with the transpose folded into the GEMM call
    (cuBLAS's transposed-operand GEMM on GPU). PyTorch keeps f32 GEMMs in f32 by default
    (torch.backends.cuda.matmul.allow_tf32 is False since 1.12, and
    torch.get_float32_matmul_precision() is 'highest'), which is the accuracy this task asks."""

    def forward(self, a, b):
        return F.linear(a, b)


class MatmulBtRef(torch.nn.Module):
    """The reference: A @ B^T with the transpose spelled out (not through F.linear), in f64,
    rounded once to f32."""

    def forward(self, a, b):
        return torch.matmul(a.double(), b.double().t()).to(a.dtype)
