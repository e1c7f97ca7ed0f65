// Baseline for the welford_var task: one block per row, two passes over the row. The first sums
// the row (each thread a strided slice, then a shared-memory tree with a __syncthreads per level)
// for the mean; the second sums the squared deviations from that mean the same way. Subtracting
// the mean before squaring keeps the variance accurate where the one-pass E[x^2] - mean^2
// cancels. Launched with grid m, block 256; the tree needs blockDim.x to be a power of two
// <= 1024.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

__global__ void welford_var(const float* x, float* mean, float* var, int64_t m, int64_t n) {
  __shared__ float red[1024];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block
  const float* xr = x + row * n;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float sum = 0.0f;
  for (int64_t k = tid; k < n; k += nt) sum += xr[k];
  const float mu = block_sum(sum, red) / (float)n;

  float sq = 0.0f;
  for (int64_t k = tid; k < n; k += nt) {
    const float d = xr[k] - mu;
    sq += d * d;
  }
  const float v = block_sum(sq, red) / (float)n;
  if (tid == 0) {
    mean[row] = mu;
    var[row] = v;
  }
}
