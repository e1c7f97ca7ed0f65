#include <hip/hip_runtime.h>

// Two-level sum in one launch: each block publishes a partial, the last block to finish
// (found with __threadfence and atomicInc) adds the partials up.
__global__ void sum_last_block(const float* x, float* partial, unsigned int* counter, float* total, int n) {
  __shared__ float s[128];
  __shared__ bool last;
  int t = threadIdx.x;
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += x[i];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned int ticket = atomicInc(counter, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    float sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += ((volatile float*)partial)[b];
    *total = sum;
  }
}
