// Baseline for the transpose task: each block covers a 32 x 32 tile of x with 32 x 8 threads,
// every thread copying 4 elements. Reads of x are coalesced; writes to y are strided by m
// (one cache line per element), which is what a shared-memory tile would fix.
// Launched with grid (ceil_div(n, 32), ceil_div(m, 32)), block (32, 8).
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void transpose(const float* x, float* y, int64_t m, int64_t n) {
  const int tile = 32;
  const int64_t c = (int64_t)blockIdx.x * tile + threadIdx.x;
  const int64_t r0 = (int64_t)blockIdx.y * tile + threadIdx.y;
  if (c >= n) return;
  for (int64_t r = r0; r < r0 + tile && r < m; r += blockDim.y) y[c * m + r] = x[r * n + c];
}
