#include <hip/hip_runtime.h>

// Shared-memory block reduction where each block owns a contiguous chunk of the input
// (chunk = ceil(n / gridDim.x)): the block's threads stride through it, then a shared-memory
// tree over blockDim threads produces the block's partial sum.
__global__ void chunk_sum(const float* __restrict__ x, float* __restrict__ partial, long n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  long chunk = (n + gridDim.x - 1) / gridDim.x;
  long begin = blockIdx.x * chunk, end = begin + chunk < n ? begin + chunk : n;
  float v = 0.0f;
  for (long i = begin + t; i < end; i += blockDim.x) v += x[i];
  s[t] = v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
