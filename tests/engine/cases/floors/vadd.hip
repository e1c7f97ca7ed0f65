// Baseline for vadd: one element per thread.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
