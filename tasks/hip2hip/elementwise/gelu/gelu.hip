// Baseline for the gelu task: exact (erf) GELU in f32, one element per thread.
//   y = 0.5 * x * (1 + erf(x / sqrt(2)))
// Launched with grid ceil_div(n, 256), block 256.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void gelu(const float* x, float* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
  }
}
