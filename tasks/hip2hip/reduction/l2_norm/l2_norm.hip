// Baseline for the l2_norm task: one block per row, two passes over the row. The first finds the
// row's largest magnitude amax (each thread a strided slice, then a shared-memory tree with a
// __syncthreads per level); the second sums the squares of x / amax, which lie in [0, 1], the
// same way, so nothing overflows or underflows that matters, and y = amax * sqrt(sum). Launched
// with grid m, block 256; the trees need blockDim.x to be a power of two <= 1024.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void l2_norm(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float red[1024];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block, so no thread misses a barrier
  const float* xr = x + row * n;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float amax = 0.0f;
  for (int64_t k = tid; k < n; k += nt) amax = fmaxf(amax, fabsf(xr[k]));
  red[tid] = amax;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  amax = red[0];
  __syncthreads();  // red is reused below
  if (amax == 0.0f) {  // an all-zero row (uniform across the block)
    if (tid == 0) y[row] = 0.0f;
    return;
  }
  const float inv = 1.0f / amax;

  float ss = 0.0f;
  for (int64_t k = tid; k < n; k += nt) {
    const float v = xr[k] * inv;
    ss += v * v;
  }
  red[tid] = ss;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) y[row] = amax * sqrtf(red[0]);
}
