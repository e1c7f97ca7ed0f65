// Writes the warp size the kernel runs at.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void warp(const float* x, int32_t* w, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = warpSize;
}
