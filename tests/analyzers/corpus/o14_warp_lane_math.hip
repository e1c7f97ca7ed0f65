// Warp reduction written for 32-wide warps.
#include <hip/hip_runtime.h>

__global__ void block_sum(const float* x, float* out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
    atomicAdd(out, s);
  }
}
