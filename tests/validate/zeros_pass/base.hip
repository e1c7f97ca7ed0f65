#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void tiny(const float* x, float* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1e-7f * x[i];
}
