#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

__global__ void half_axpy(__half a, const __half* x, __half* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma(a, x[i], y[i]) + __float2half(0.25f) * __half(2.0f);
}
