// Butterfly reduction with an explicit 32-lane shuffle width.
#include <hip/hip_runtime.h>

__global__ void row_max(const float* x, float* y, int rows, int cols) {
  int row = blockIdx.x;
  if (row >= rows) return;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[row * cols + c]);
  for (int mask = warpSize / 2; mask > 0; mask /= 2) m = fmaxf(m, __shfl_xor(m, mask, 32));
  if (threadIdx.x == 0) y[row] = m;
}
