#include <hip/hip_runtime.h>

// float4 loads and stores over n4 = n/4 vectors; int2 pairs swapped.
__global__ void vec4_scale(const float4* x, float4* y, int2* pairs, float s, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 v = x[i];
  y[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s) + make_float4(1, 1, 1, 1);
  int2 p = pairs[i];
  pairs[i] = make_int2(p.y, p.x);
}
