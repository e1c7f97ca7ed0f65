// Reference for the audit test task.
#include <hip/hip_runtime.h>

__global__ void scale_ref(const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
