# The matmul_tril task: the product of two lower-triangular f32 matrices, C = tril(tril(A) @
# tril(B)). A and B are drawn full; the module takes their lower triangles (diagonal included),
# which is how a triangular matmul is defined. Runs on torch 1.13 and later, on CPU and GPU.
import torch


class MatmulTril(torch.nn.Module):
    """The baseline: what a PyTorch model writes, torch.tril on both operands, a full f32
    torch.matmul (cuBLAS computes the zero upper half too) and torch.tril of the product. PyTorch
    keeps f32 GEMMs in f32 by default (torch.backends.cuda.matmul.allow_tf32 is False since 1.12,
    and torch.get_float32_matmul_precision() is 'highest'), which is the accuracy this task
    asks."""

    def forward(self, a, b):
        return torch.tril(torch.matmul(torch.tril(a), torch.tril(b)))


class MatmulTrilRef(torch.nn.Module):
    """The reference, from the definition rather than through tril: C[i, j] = sum over
    j <= k <= i of A[i, k] B[k, j] for i >= j, else 0, as an f64 product of the operands masked
    by index comparisons, the upper half masked out again; rounded once to f32."""

    def forward(self, a, b):
        n = a.shape[0]
        idx = torch.arange(n, device=a.device)
        lower = idx.unsqueeze(1) >= idx.unsqueeze(0)  # [i, j]: i >= j
        zero = torch.zeros((), dtype=torch.float64, device=a.device)
        al = torch.where(lower, a.double(), zero)
        bl = torch.where(lower, b.double(), zero)
        return torch.where(lower, torch.matmul(al, bl), zero).to(a.dtype)
