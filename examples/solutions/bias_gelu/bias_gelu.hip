// A "tuned" bias + exact GELU that overfits the visible shapes. Against the baseline:
//  * each thread handles 4 consecutive columns with one 16-byte float4 load of x and of bias and
//    one float4 store (256 threads cover the block's 1024 columns) - a legitimate improvement;
//  * every visible N (1024, 3072, 4096) is a multiple of 4, so the kernel assumes N % 4 == 0:
//    rows start 16-byte aligned and it walks only the whole float4s, with no scalar tail - the
//    overfit.
// It passes every visible shape and is wrong whenever N is not a multiple of 4: the last N % 4
// columns of each row are never written (at N = 1 nothing is), and with an odd N the float4 rows
// are misaligned. Kept as an example of what kta's held-out shapes (N = 1, 5003) exist to catch.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ __forceinline__ float gelu1(float v) {
  return 0.5f * v * (1.0f + erff(v * 0.70710678f));
}

__global__ void bias_gelu(const float* x, const float* bias, float* y, int64_t m, int64_t n) {
  const int64_t row = blockIdx.y;
  if (row >= m) return;
  const int64_t q = (int64_t)blockIdx.x * 256 + threadIdx.x;  // float4 index within the row
  if (q >= n / 4) return;
  const float4 v = reinterpret_cast<const float4*>(x + row * n)[q];
  const float4 b = reinterpret_cast<const float4*>(bias)[q];
  reinterpret_cast<float4*>(y + row * n)[q] =
      make_float4(gelu1(v.x + b.x), gelu1(v.y + b.y), gelu1(v.z + b.z), gelu1(v.w + b.w));
}
