#include <hip/hip_runtime.h>

__global__ void crash(float* y) {
  float* volatile p = nullptr;
  y[threadIdx.x] = *p;
}
