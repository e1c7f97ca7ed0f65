// Writes the warp size the kernel runs at, plus 1 where x is positive (so that the output
// depends on the input: a task whose output is constant is refused as degenerate).
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void warp(const float* x, int32_t* w, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = warpSize + (x[i] > 0.0f ? 1 : 0);
}
