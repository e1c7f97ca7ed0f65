// float4 loads over n / 4 vectors: the last n % 4 elements are never touched.
#include <hip/hip_runtime.h>

__global__ void scale4(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    float4 v = reinterpret_cast<const float4*>(x)[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    reinterpret_cast<float4*>(y)[i] = v;
  }
}
