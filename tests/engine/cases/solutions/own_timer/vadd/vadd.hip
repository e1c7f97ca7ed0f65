// Adversarial case own_timer: defines the HIP event timer itself, reporting every interval as a
// microsecond. It compiles on the cpu device as against HIP, and fools nothing: the engine never
// times through events.
#include <hip/hip_runtime.h>
#include <stdint.h>

extern "C" hipError_t hipEventElapsedTime(float* ms, hipEvent_t, hipEvent_t) {
  *ms = 0.001f;
  return hipSuccess;
}

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
