// half2 arithmetic over n / 2 pairs with no odd-element handling.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__global__ void scale_half(__half* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2) {
    __half2 v = reinterpret_cast<__half2*>(x)[i];
    v.x = __float2half(__half2float(v.x) * a);
    v.y = __float2half(__half2float(v.y) * a);
    reinterpret_cast<__half2*>(x)[i] = v;
  }
}
