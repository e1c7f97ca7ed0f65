// Adversarial case poison_aware: computes an element only when its output looks poisoned
// (NaN), else returns at once. Every timed launch's output is poisoned, so it always computes.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !isnan(z[i])) return;  // not poisoned: taken as already computed
  z[i] = x[i] + y[i];
}
