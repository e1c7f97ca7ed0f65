#include <hip/hip_runtime.h>

__global__ void double_math(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sqrt(fabs(x[i])) + exp(-x[i] * x[i]) + tanh(x[i]);
}
