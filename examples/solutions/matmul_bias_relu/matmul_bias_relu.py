# A faster matmul_bias_relu, general in M, N and K: one fused kernel. Large tiles (128 x 128,
# K in steps of 64, 8 warps, 3 pipeline stages) raise the arithmetic intensity of each load,
# programs are ordered in groups of 8 tile rows so that neighbouring programs share tiles of
# a and b in L2, and the bias, ReLU and rounding to f16 happen on the accumulator in registers,
# so the f32 product never goes to memory. Masks on every load and store handle any size.
import triton
import triton.language as tl


@triton.jit
def _matmul_bias_relu_kernel(a_ptr, b_ptr, bias_ptr, out_ptr, M, N, K,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                             GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BM)
    grid_n = tl.cdiv(N, BN)
    in_group = GROUP_M * grid_n
    first_m = (pid // in_group) * GROUP_M
    group_size = tl.minimum(grid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % in_group) % group_size
    pid_n = (pid % in_group) // group_size

    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None].to(tl.int64) * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None].to(tl.int64) * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = tl.maximum(acc + bias[None, :], 0.0).to(tl.float16)
    tl.store(out_ptr + rm[:, None].to(tl.int64) * N + rn[None, :], y,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul_bias_relu(a, b, bias, out, M, N, K):
    """a: [M, K], b: [K, N], bias: [N], out: [M, N], all f16 CUDA tensors, contiguous."""
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    _matmul_bias_relu_kernel[grid](a, b, bias, out, M, N, K, BM=128, BN=128, BK=64, GROUP_M=8,
                                   num_warps=8, num_stages=3)
