#include <hip/hip_runtime.h>

// RMS norm with one warp per row: butterfly (__shfl_xor) sum of squares.
__global__ void rmsnorm(const float* x, float* y, int rows, int cols) {
  int warps_per_block = blockDim.x / warpSize;
  int row = blockIdx.x * warps_per_block + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;
  float ss = 0;
  if (row < rows)
    for (int c = lane; c < cols; c += warpSize) ss += x[row * cols + c] * x[row * cols + c];
  for (int m = warpSize / 2; m > 0; m >>= 1) ss += __shfl_xor(ss, m);
  if (row >= rows) return;
  float inv = rsqrtf(ss / cols + 1e-6f);
  for (int c = lane; c < cols; c += warpSize) y[row * cols + c] = x[row * cols + c] * inv;
}
