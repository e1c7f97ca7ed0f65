// A "tuned" row sum that overfits the visible shapes: every visible row length is a multiple of
// 1024, so this kernel walks the row in fixed chunks of 1024 floats (256 threads x float4) and
// never looks at the remainder. It passes every visible shape and is wrong on a row length that
// is not a multiple of 1024 (the tail is dropped, and a row shorter than 1024 sums to 0).
// Kept as an example of what kta's held-out shapes and shape audit exist to catch.
#include <hip/hip_runtime.h>
#include <stdint.h>

#define CHUNK 1024

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  return v;
}

__global__ void reduce_sum(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float partial[32];
  const int64_t row = blockIdx.x;
  if (row >= m) return;
  const float4* xr = reinterpret_cast<const float4*>(x + row * n);
  const int tid = threadIdx.x;
  const int lane = tid % warpSize;
  const int warp = tid / warpSize;

  float sum = 0.0f;
  for (int64_t c = 0; c < n / CHUNK; ++c) {
    const float4 v = xr[c * (CHUNK / 4) + tid];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  sum = warp_sum(sum);
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < (int)(blockDim.x / warpSize) ? partial[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) y[row] = sum;
  }
}
