#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void scale_ref(const float* x, float* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 3.0f * x[i] + 1.0f;
}
