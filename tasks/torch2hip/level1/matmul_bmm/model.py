# The matmul_bmm task: a batch of f32 matrix products, C[z] = A[z] @ B[z] (torch.bmm). Runs on
# torch 1.13 and later, on CPU and GPU.
import torch


class MatmulBmm(torch.nn.Module):
    """The baseline: torch.bmm in f32 (cuBLAS's batched GEMM on GPU). PyTorch keeps f32 GEMMs in
    f32 by default (torch.backends.cuda.matmul.allow_tf32 is False since 1.12, and
    torch.get_float32_matmul_precision() is 'highest'), which is the accuracy this task asks."""

    def forward(self, a, b):
        return torch.bmm(a, b)


class MatmulBmmRef(torch.nn.Module):
    """The reference: the products in f64, rounded once to f32."""

    def forward(self, a, b):
        return torch.bmm(a.double(), b.double()).to(a.dtype)
