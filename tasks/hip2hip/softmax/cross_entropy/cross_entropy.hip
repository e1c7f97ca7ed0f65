// Baseline for the cross_entropy task: one block per row, two passes over the row: the row
// maximum, then the sum of exp(x - max), each a strided slice per thread and a shared-memory
// tree with a __syncthreads per level; thread 0 then reads the label's logit and writes
// loss = (max - x[label]) + log(sum). A row whose label is ignore_index is skipped (loss 0).
// Launched with grid b, block 256; the trees need blockDim.x to be a power of two <= 1024.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void cross_entropy(const float* logits, const int64_t* labels, float* loss, int64_t b,
                              int64_t c, int64_t ignore_index) {
  __shared__ float red[1024];
  const int64_t row = blockIdx.x;
  if (row >= b) return;  // uniform across the block, so no thread misses a barrier
  const int64_t t = labels[row];
  if (t == ignore_index) {  // uniform too
    if (threadIdx.x == 0) loss[row] = 0.0f;
    return;
  }
  const float* xr = logits + row * c;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float mx = -INFINITY;
  for (int64_t k = tid; k < c; k += nt) mx = fmaxf(mx, xr[k]);
  red[tid] = mx;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  mx = red[0];
  __syncthreads();  // red is reused below

  float sum = 0.0f;
  for (int64_t k = tid; k < c; k += nt) sum += expf(xr[k] - mx);
  red[tid] = sum;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) loss[row] = (mx - xr[t]) + logf(red[0]);
}
