# The gemv task: y = A @ x for an f32 matrix A [M, K] and vector x [K] (torch.mv). Runs on torch
# 1.13 and later, on CPU and GPU.
import torch


class Gemv(torch.nn.Module):
    """The baseline: torch.mv in f32 (cuBLAS's sgemv on GPU)."""

    def forward(self, a, x):
        return torch.mv(a, x)


class GemvRef(torch.nn.Module):
    """The reference: each row's dot product written out as a multiply and a row sum in f64 (not
    through mv), rounded once to f32."""

    def forward(self, a, x):
        return (a.double() * x.double().unsqueeze(0)).sum(dim=1).to(a.dtype)
