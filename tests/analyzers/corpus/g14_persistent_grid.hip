// A persistent kernel: a fixed grid sized to the device, grid-stride over any n.
#include <hip/hip_runtime.h>

__global__ void abs_all(float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = fabsf(x[i]);
}

void launch(float* x, int n, hipStream_t s) {
  abs_all<<<120, 256, 0, s>>>(x, n);
}
