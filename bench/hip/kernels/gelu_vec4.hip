// A good gelu candidate: four elements per thread through 16-byte loads and stores, scalar tail.
// Launched with grid ceil_div(n, 1024), block 256.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ __forceinline__ float gelu1(float v) { return 0.5f * v * (1.0f + erff(v * 0.70710678f)); }

__global__ void gelu_vec4(const float* x, float* y, int64_t n) {
  const int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n && (reinterpret_cast<uintptr_t>(x) & 15) == 0 && (reinterpret_cast<uintptr_t>(y) & 15) == 0) {
    float4 v = *reinterpret_cast<const float4*>(x + i);
    v.x = gelu1(v.x); v.y = gelu1(v.y); v.z = gelu1(v.z); v.w = gelu1(v.w);
    *reinterpret_cast<float4*>(y + i) = v;
  } else {
    for (int64_t j = i; j < n && j < i + 4; ++j) y[j] = gelu1(x[j]);
  }
}
