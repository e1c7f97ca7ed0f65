// Grid-stride copy: any grid covers any size.
#include <hip/hip_runtime.h>

__global__ void copy(const float* x, float* y, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
    y[i] = x[i];
}
