#include <hip/hip_runtime.h>

// 80 KiB of static shared memory: over the default 64 KiB limit.
__global__ void big_shared(float* y) {
  __shared__ float s[20480];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  y[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
