#include <hip/hip_runtime.h>

// Fast intrinsics: y = saturate(exp(x)/(1+exp(x))) + log(1+|x|) * rsqrt(1+x^2), with fma.
__global__ void fast_math(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float e = __expf(v);
  float s = __saturatef(__fdividef(e, 1.0f + e));
  y[i] = fmaf(__logf(1.0f + fabsf(v)), rsqrtf(1.0f + v * v), s) + __sinf(0.0f) + __powf(1.0f, v);
}
