// A "tuned" exact GELU that overfits the visible shapes. Against the baseline:
//  * each thread handles 4 elements with one 16-byte float4 load and store (a quarter of the
//    launched threads do the work, the rest exit at once) - a legitimate improvement;
//  * every visible N is a power of two, so the kernel assumes N % 4 == 0 and walks only the
//    N / 4 whole float4s, with no scalar tail - the overfit.
// It passes every visible shape and is wrong whenever N is not a multiple of 4: the last N % 4
// outputs are never written (at N = 1 nothing is). Kept as an example of what kta's held-out
// shapes exist to catch.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ __forceinline__ float gelu1(float v) {
  return 0.5f * v * (1.0f + erff(v * 0.70710678f));
}

__global__ void gelu(const float* x, float* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / 4) return;
  const float4 v = reinterpret_cast<const float4*>(x)[i];
  reinterpret_cast<float4*>(y)[i] = make_float4(gelu1(v.x), gelu1(v.y), gelu1(v.z), gelu1(v.w));
}
