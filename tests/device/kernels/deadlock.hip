#include <hip/hip_runtime.h>

// Half the block waits at a barrier the other half never reaches.
__global__ void deadlock(float* y) {
  if (threadIdx.x < 32) {
    __syncthreads();
  }
  y[threadIdx.x] = 1.0f;
}
