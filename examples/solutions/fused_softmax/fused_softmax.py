# A faster fused_softmax, general in M and N: rows up to 16384 columns are held in registers
# (BLOCK = next power of two of N, masked past N), so each element is loaded once, exponentiated
# once and stored once; the warp count grows with the row. Longer rows fall back to a two-pass
# online softmax (running maximum and rescaled sum in one pass, output in the second), which
# still reads each element twice instead of three times.
import triton
import triton.language as tl

MAX_FUSED = 16384


@triton.jit
def _softmax_row(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * N + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def _softmax_online(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * N
    y_row = y_ptr + row * N
    cols = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_row + start + cols, mask=start + cols < N, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # Lanes that have seen nothing yet keep m = -inf and s = 0 (avoid -inf - -inf = NaN).
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(m_new == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(s * tl.exp(m - row_max), axis=0)
    for start in range(0, N, BLOCK):
        mask = start + cols < N
        x = tl.load(x_row + start + cols, mask=mask, other=float("-inf"))
        tl.store(y_row + start + cols, tl.exp(x - row_max) / row_sum, mask=mask)


def softmax(x, y, M, N):
    """x, y: [M, N] f32 CUDA tensors, contiguous; writes y = softmax(x) along rows."""
    if N <= MAX_FUSED:
        block = triton.next_power_of_2(N)
        warps = 1 if block <= 256 else 4 if block <= 2048 else 8 if block <= 8192 else 16
        _softmax_row[(M,)](x, y, N, BLOCK=block, num_warps=warps)
    else:
        _softmax_online[(M,)](x, y, N, BLOCK=4096, num_warps=8)
