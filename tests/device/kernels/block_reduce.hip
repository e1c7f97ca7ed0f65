#include <hip/hip_runtime.h>

// One partial sum per block: grid-stride accumulation, then a shared-memory tree.
__global__ void block_reduce(const float* x, float* partial, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += x[i];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
