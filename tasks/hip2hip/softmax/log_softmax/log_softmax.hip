// Baseline for the log_softmax task: one block per row, three passes over the row: the row
// maximum, the sum of exp(x - max), then y = (x - max) - log(sum). Both reductions reduce each
// warp with __shfl_xor (warpSize lanes, 32 or 64) and combine the warp results through shared
// memory. Launched with grid m, block 256; any multiple of warpSize up to 1024 threads works.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__device__ float warp_max(float v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor(v, off));
  return v;
}

__device__ float warp_sum(float v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_xor(v, off);
  return v;
}

// Every thread gets the block's maximum (sum). part holds one value per warp (at most 32).
__device__ float block_max(float v, float* part) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  v = warp_max(v);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  float r = part[0];
  for (int w = 1; w < nwarps; ++w) r = fmaxf(r, part[w]);
  __syncthreads();  // part is reused by the next call
  return r;
}

__device__ float block_sum(float v, float* part) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = blockDim.x / warpSize;
  v = warp_sum(v);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  float r = 0.0f;
  for (int w = 0; w < nwarps; ++w) r += part[w];
  __syncthreads();
  return r;
}

__global__ void log_softmax(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float part[32];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block, so no thread misses a barrier
  const float* xr = x + row * n;
  float* yr = y + row * n;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float mx = -INFINITY;
  for (int64_t k = tid; k < n; k += nt) mx = fmaxf(mx, xr[k]);
  mx = block_max(mx, part);

  float sum = 0.0f;
  for (int64_t k = tid; k < n; k += nt) sum += expf(xr[k] - mx);
  const float lse = logf(block_sum(sum, part));

  for (int64_t k = tid; k < n; k += nt) yr[k] = (xr[k] - mx) - lse;
}
