# Baseline for the add_rmsnorm task, unfused: an elementwise kernel writes the residual sum
# h = x + res, then a row kernel (one program per row, the whole row in registers) reads h back to
# normalize it. Correct for any M and N, but h makes a round trip through memory: 5 row-sized
# transfers (read x, res; write h; read h; write y) instead of 4.
import triton
import triton.language as tl


@triton.jit
def _add_kernel(x_ptr, r_ptr, h_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(h_ptr + offs, (x + r).to(tl.bfloat16), mask=mask)


@triton.jit
def _rmsnorm_kernel(h_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    h = tl.load(h_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (h * rstd * w).to(tl.bfloat16), mask=mask)


def add_rmsnorm(x, res, w, h, y, M, N, eps):
    """x, res, h, y: [M, N] bf16; w: [N] bf16; CUDA tensors, contiguous. N <= 65536."""
    total = M * N
    _add_kernel[(triton.cdiv(total, 1024),)](x, res, h, total, BLOCK=1024, num_warps=4)
    block = triton.next_power_of_2(N)
    warps = 4 if block <= 2048 else 8 if block <= 8192 else 16
    _rmsnorm_kernel[(M,)](h, w, y, N, eps, BLOCK=block, num_warps=warps)
