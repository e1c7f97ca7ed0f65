# A faster add_rmsnorm, general in M and N (N <= 65536, as the task states): one fused kernel.
# Each program loads a row of x and res once, rounds the sum to bf16 and stores it as h, and
# normalizes the rounded sum straight from registers, so h is never read back (4 row-sized
# transfers instead of 5, and one launch instead of two). Short rows are packed several to a
# program as a [ROWS, BLOCK] tile so that each program moves at least ~2048 elements.
import triton
import triton.language as tl


@triton.jit
def _add_rmsnorm_kernel(x_ptr, r_ptr, w_ptr, h_ptr, y_ptr, M, N, eps,
                        BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    hb = (x + r).to(tl.bfloat16)
    tl.store(h_ptr + offs, hb, mask=mask)
    h = hb.to(tl.float32)  # normalize the stored (rounded) sum, as the task defines
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=1) / N + eps)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (h * rstd[:, None] * w[None, :]).to(tl.bfloat16), mask=mask)


def add_rmsnorm(x, res, w, h, y, M, N, eps):
    """x, res, h, y: [M, N] bf16; w: [N] bf16; CUDA tensors, contiguous. N <= 65536."""
    block = triton.next_power_of_2(N)
    rows = max(1, min(16, 2048 // block))
    warps = 4 if block * rows <= 4096 else 8 if block <= 8192 else 16
    _add_rmsnorm_kernel[(triton.cdiv(M, rows),)](x, res, w, h, y, M, N, eps, BLOCK=block, ROWS=rows,
                                                 num_warps=warps)
