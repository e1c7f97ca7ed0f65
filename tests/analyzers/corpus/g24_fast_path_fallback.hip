// A fast path for the one size the author tuned for, with a correct general path beside it:
// in the kernel (an exact grid and a fixed trip count) and in the launcher (its own kernel).
#include <hip/hip_runtime.h>

__global__ void square(const float* x, float* y, int n) {
  if (n == 4096) {
    // 4096 = 16 blocks of 256: every thread owns exactly one element.
    int i = blockIdx.x * 256 + threadIdx.x;
    y[i] = x[i] * x[i];
  } else {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
      y[i] = x[i] * x[i];
  }
}

__global__ void cube_exact(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * x[i] * x[i];
}

__global__ void cube(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i] * x[i];
}

void launch_cube(const float* x, float* y, int n, hipStream_t s) {
  if (n == 1048576) {
    cube_exact<<<4096, 256, 0, s>>>(x, y);
  } else {
    cube<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
  }
}

void launch_square(const float* x, float* y, int n, hipStream_t s) {
  square<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
}
