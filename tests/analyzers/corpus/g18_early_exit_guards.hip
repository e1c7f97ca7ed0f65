// Early returns that guard, not specialize.
#include <hip/hip_runtime.h>

__global__ void log1p_kernel(const float* x, float* y, int n) {
  if (n <= 0) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = log1pf(x[i]);
}
