#include <hip/hip_runtime.h>

// Sum of each warp's values with __shfl_down; lane 0 writes one result per warp.
__global__ void warp_reduce(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (__lane_id() == 0) out[i / warpSize] = v;
}
