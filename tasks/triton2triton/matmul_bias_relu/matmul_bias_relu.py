# Baseline for the matmul_bias_relu task, unfused and with small tiles: a tiled tensor-core
# matmul (32 x 32 output tiles, K in steps of 32, programs in row-major order) writes the f32
# product to a temporary buffer, then an elementwise kernel reads it back, adds the bias,
# applies ReLU and rounds to f16. Correct for any M, N, K.
import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BN)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _bias_relu_kernel(c_ptr, bias_ptr, out_ptr, total, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    c = tl.load(c_ptr + offs, mask=mask, other=0.0)
    bias = tl.load(bias_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, tl.maximum(c + bias, 0.0).to(tl.float16), mask=mask)


def matmul_bias_relu(a, b, bias, out, M, N, K):
    """a: [M, K], b: [K, N], bias: [N], out: [M, N], all f16 CUDA tensors, contiguous."""
    c = torch.empty((M, N), dtype=torch.float32, device=a.device)
    grid = (triton.cdiv(M, 32) * triton.cdiv(N, 32),)
    _matmul_kernel[grid](a, b, c, M, N, K, BM=32, BN=32, BK=32, num_warps=4)
    total = M * N
    _bias_relu_kernel[(triton.cdiv(total, 1024),)](c, bias, out, total, N, BLOCK=1024,
                                                   num_warps=4)
