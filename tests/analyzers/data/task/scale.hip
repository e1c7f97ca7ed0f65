// Baseline: general, except a warp-size assumption that candidates inherit.
#include <hip/hip_runtime.h>

__global__ void scale(const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (i < n) y[i] = 2.0f * x[i] + 0.0f * lane;
}
