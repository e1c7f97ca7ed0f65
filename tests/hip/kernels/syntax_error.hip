#include <hip/hip_runtime.h>

__global__ void broken(float* y, int n) {
  y[threadIdx.x] = undefined_name + n;
}
