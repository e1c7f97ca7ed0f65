// Case slow: right result, far more work per element than the baseline.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < 2000; ++k) acc = acc * 0.999f + x[i];
    z[i] = x[i] + y[i] + acc * 0.0f;
  }
}
