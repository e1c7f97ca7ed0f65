// The AMD warp width, whatever the device's, plus 1 where x is positive.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void warp_ref(const float* x, int32_t* w, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = 64 + (x[i] > 0.0f ? 1 : 0);
}
