# Baseline for the rmsnorm task: one program per row that walks the row in chunks of 128 columns
# twice (sum of squares, then the scaled output). Correct for any N, but each row is loaded
# twice and a 128-wide chunk keeps one f16 value per thread in flight.
import triton
import triton.language as tl


@triton.jit
def _rmsnorm_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * N
    y_row = y_ptr + row * N
    cols = tl.arange(0, BLOCK)

    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_row + start + cols, mask=start + cols < N, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)

    for start in range(0, N, BLOCK):
        mask = start + cols < N
        x = tl.load(x_row + start + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + start + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + start + cols, (x * rstd * w).to(tl.float16), mask=mask)


def rmsnorm(x, w, y, M, N, eps):
    """x, y: [M, N] f16, w: [N] f16 CUDA tensors, contiguous; y = x / rms(x) * w per row."""
    _rmsnorm_kernel[(M,)](x, w, y, N, eps, BLOCK=128, num_warps=4)
