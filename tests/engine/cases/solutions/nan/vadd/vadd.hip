// Case nan: a NaN where the reference has a number.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = i == 7 ? __int_as_float(0x7fc00000) : x[i] + y[i];
}
