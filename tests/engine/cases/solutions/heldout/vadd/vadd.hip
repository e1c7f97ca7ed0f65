// Case heldout: four elements per thread with no tail handling — right at the visible sizes
// (multiples of 4), wrong at any size that is not.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t i = t * 4;
  if (i + 3 < n) {
    for (int k = 0; k < 4; ++k) z[i + k] = x[i + k] + y[i + k];
  }
}
