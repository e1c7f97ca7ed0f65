// Reference for vadd: one element per thread, in double, rounded once.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd_ref(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = (float)((double)x[i] + (double)y[i]);
}
