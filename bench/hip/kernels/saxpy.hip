#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void saxpy(float a, const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) y[i] = a * x[i] + y[i];
}
