# Baseline for the rope task: one program per (token, head) pair rotates one head vector of D
# values; the token's cos and sin rows are loaded again by every head, and a program handles
# only D / 2 pairs (32-64 values for 128 threads).
import triton
import triton.language as tl


@triton.jit
def _rope_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, H, D, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)  # = t * H + h
    t = pid // H
    half = D // 2
    cols = tl.arange(0, BLOCK)
    mask = cols < half
    c = tl.load(cos_ptr + t * half + cols, mask=mask, other=0.0)
    s = tl.load(sin_ptr + t * half + cols, mask=mask, other=0.0)
    x1 = tl.load(x_ptr + pid * D + cols, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + pid * D + half + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + pid * D + cols, (x1 * c - x2 * s).to(tl.bfloat16), mask=mask)
    tl.store(y_ptr + pid * D + half + cols, (x2 * c + x1 * s).to(tl.bfloat16), mask=mask)


def rope(x, cos, sin, y, T, H, D):
    """x, y: [T, H, D] bf16; cos, sin: [T, D / 2] f32; CUDA tensors, contiguous."""
    block = max(16, triton.next_power_of_2(D // 2))
    _rope_kernel[(T * H,)](x, cos, sin, y, H, D, BLOCK=block, num_warps=4)
