#include <hip/hip_runtime.h>

// Shared-memory block reduction: grid-stride accumulation, then a tree over blockDim threads.
__global__ void block_sum(const float* __restrict__ x, float* __restrict__ partial, long n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  float v = 0.0f;
  for (long i = blockIdx.x * (long)blockDim.x + t; i < n; i += (long)blockDim.x * gridDim.x) v += x[i];
  s[t] = v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
