// Baseline for the swiglu task: y = silu(a) * b over bf16 [m, n] matrices, computed in f32.
// Launched with grid (ceil_div(n, 512), m), block 256: blockIdx.y is the row, and each block
// covers 512 consecutive columns of it, each thread 2 of them, one bf16 load and store at a
// time, strided by the block size so that every access is coalesced.
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void swiglu(const __hip_bfloat16* a, const __hip_bfloat16* b, __hip_bfloat16* y,
                       int64_t m, int64_t n) {
  const int per_thread = 2;
  const int64_t row = blockIdx.y;
  if (row >= m) return;
  const int64_t col0 = (int64_t)blockIdx.x * blockDim.x * per_thread + threadIdx.x;
  for (int j = 0; j < per_thread; ++j) {
    const int64_t col = col0 + (int64_t)j * blockDim.x;
    if (col < n) {
      const int64_t i = row * n + col;
      const float va = __bfloat162float(a[i]);
      const float vb = __bfloat162float(b[i]);
      y[i] = __float2bfloat16(va / (1.0f + expf(-va)) * vb);
    }
  }
}
