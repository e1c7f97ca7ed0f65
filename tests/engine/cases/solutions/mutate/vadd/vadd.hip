// Case mutate: right output, but writes its input.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    z[i] = x[i] + y[i];
    if (i == 0) x[0] = 42.0f;
  }
}
