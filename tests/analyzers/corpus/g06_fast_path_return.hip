// A fast path for one size that returns early; the general path follows.
#include <hip/hip_runtime.h>

__global__ void add_general(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += x[i];
}

__global__ void add_wide(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

int launch(const float* x, float* y, int n, hipStream_t s) {
  if (n == 1048576) {
    add_wide<<<n / 256, 256, 0, s>>>(x, y, n);
    return 0;
  }
  add_general<<<(n + 511) / 512, 512, 0, s>>>(x, y, n);
  return 0;
}
