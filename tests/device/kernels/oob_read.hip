#include <hip/hip_runtime.h>

// Reads one element past the end: the bounds check uses <= instead of <.
__global__ void oob_read(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) {
    float v = x[i];
    y[i < n ? i : n - 1] = v;
  }
}
