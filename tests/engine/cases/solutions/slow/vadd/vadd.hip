// Case slow: right result, far more work per element than the baseline (~10^4x). With 2000
// iterations it once passed the gate on a loaded 2-core machine under --quick timing: with two
// shapes the bootstrap interval spans both ratios, and one stalled baseline sample set can lift
// the upper one to ~1.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < 20000; ++k) acc = acc * 0.999f + x[i];
    z[i] = x[i] + y[i] + acc * 0.0f;
  }
}
