// Baseline for the masked_softmax task: causal + left-padding masked softmax of scale * x, one
// block of 256 threads per row (grid (S, H, B): blockIdx.x the row i, .y the head, .z the batch).
// Three passes over the whole row, each thread taking columns tid, tid + 256, ... and testing the
// mask pad[b] <= j <= i on every element: the maximum, the sum of exponentials, then the output
// (expf again; 0 where masked). Both reductions are shared-memory trees with a barrier per
// level. A row with no visible key ends with m = -inf and l = 0 and writes only zeros.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__device__ float block_max(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();
  return total;
}

__global__ void masked_softmax(const float* x, const int* pad, float* y, int64_t nb, int64_t nh,
                               int64_t s, int64_t d) {
  __shared__ float red[kThreads];
  const int64_t i = blockIdx.x, h = blockIdx.y, b = blockIdx.z;
  const int64_t lo = pad[b];
  const float scale = 1.0f / sqrtf((float)d);
  const int64_t row = (b * nh + h) * s + i;
  const float* xr = x + row * s;
  float* yr = y + row * s;

  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j < s; j += kThreads)
    if (j >= lo && j <= i) m = fmaxf(m, scale * xr[j]);
  m = block_max(m, red);

  float l = 0.0f;
  for (int64_t j = threadIdx.x; j < s; j += kThreads)
    if (j >= lo && j <= i) l += expf(scale * xr[j] - m);
  l = block_sum(l, red);

  for (int64_t j = threadIdx.x; j < s; j += kThreads)
    yr[j] = (j >= lo && j <= i) ? expf(scale * xr[j] - m) / l : 0.0f;
}
