// float4 body plus a scalar loop for the last n % 4 elements.
#include <hip/hip_runtime.h>

__global__ void scale4(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int vecs = n / 4;
  if (i < vecs) {
    float4 v = reinterpret_cast<const float4*>(x)[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    reinterpret_cast<float4*>(y)[i] = v;
  }
  if (i == 0)
    for (int j = vecs * 4; j < n; ++j) y[j] = a * x[j];
}
