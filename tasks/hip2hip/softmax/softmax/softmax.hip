// Baseline for the softmax task: one block per row, three passes over the row (max, sum of
// exponentials, normalize), each reduction a shared-memory tree with a __syncthreads per level.
// Launched with grid m, block 256; the tree needs blockDim.x to be a power of two <= 1024.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void softmax(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float red[1024];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block, so no thread misses a barrier
  const float* xr = x + row * n;
  float* yr = y + row * n;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float mx = -INFINITY;
  for (int64_t k = tid; k < n; k += nt) mx = fmaxf(mx, xr[k]);
  red[tid] = mx;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  mx = red[0];
  __syncthreads();

  float sum = 0.0f;
  for (int64_t k = tid; k < n; k += nt) sum += expf(xr[k] - mx);
  red[tid] = sum;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  sum = red[0];

  for (int64_t k = tid; k < n; k += nt) yr[k] = expf(xr[k] - mx) / sum;
}
