// Reference for saxpy: in double, rounded once.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void saxpy_ref(const float* x, float* y, float a, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (float)((double)a * (double)x[i] + (double)y[i]);
}
