# The matmul_rect task: C = A @ B for rectangular f32 matrices, A [M, K] and B [K, N]
# (torch.matmul). Runs on torch 1.13 and later, on CPU and GPU.
import torch


class MatmulRect(torch.nn.Module):
    """The baseline: torch.matmul in f32 (cuBLAS on GPU, the CPU BLAS on CPU). PyTorch keeps f32
    GEMMs in f32 by default (torch.backends.cuda.matmul.allow_tf32 is False since 1.12, and
    torch.get_float32_matmul_precision() is 'highest'), which is the accuracy this task asks."""

    def forward(self, a, b):
        return torch.matmul(a, b)


class MatmulRectRef(torch.nn.Module):
    """The reference: the product in f64, rounded once to f32."""

    def forward(self, a, b):
        return torch.matmul(a.double(), b.double()).to(a.dtype)
