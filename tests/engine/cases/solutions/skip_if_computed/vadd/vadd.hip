// Adversarial case skip_if_computed: skips every element whose output already holds the right
// sum (a launch that finds its work done skips it). Every timed launch is handed a poisoned
// output and inputs it never saw, so it never skips: it gains nothing.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float want = x[i] + y[i];
  if (z[i] == want) return;  // already computed: skip the store
  z[i] = want;
}
