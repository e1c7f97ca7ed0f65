// Case exited_lane: the lower half of each 64-thread block reads a value from a lane of the
// upper half, which has already exited. At warp size 64 that read gives 0 (AMD), so the result
// is right and only the lane check (--check-lanes) catches it.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i] + y[i];
  if (threadIdx.x >= 32) {
    z[i] = v;
    return;
  }
  const float partner = __shfl_xor(v, 32);
  z[i] = v + 0.0f * partner;
}
