#include <hip/hip_runtime.h>

__global__ void int_intrinsics(const unsigned* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = x[i];
  out[4 * i + 0] = __popc(v);
  out[4 * i + 1] = __clz((int)v);
  out[4 * i + 2] = __ffs((int)v);
  out[4 * i + 3] = (int)(__brev(v) >> 16) + __mulhi((int)v, 3);
}
