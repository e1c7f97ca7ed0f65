// A dim3 grid that covers exactly 16 x 256 = 4096 threads.
#include <hip/hip_runtime.h>

__global__ void clamp01(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fminf(fmaxf(x[i], 0.0f), 1.0f);
}

void launch_clamp(float* x, int n, hipStream_t stream) {
  dim3 grid(16, 1);
  hipLaunchKernelGGL(clamp01, grid, dim3(256), 0, stream, x, n);
}
