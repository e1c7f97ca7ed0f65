// Baseline for saxpy: one element per thread, fused multiply-add.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void saxpy(const float* x, float* y, float a, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
}
