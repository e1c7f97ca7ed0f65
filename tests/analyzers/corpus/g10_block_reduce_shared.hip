// Shared-memory tree reduction; the 512-float scratch equals the visible M but is a block buffer.
#include <hip/hip_runtime.h>

__global__ void sum(const float* x, float* out, int n) {
  __shared__ float scratch[512];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  scratch[tid] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) scratch[tid] += scratch[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, scratch[0]);
}
