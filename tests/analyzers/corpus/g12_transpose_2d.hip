// 2-D transpose with both extents checked.
#include <hip/hip_runtime.h>

__global__ void transpose(const float* x, float* y, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) y[c * rows + r] = x[r * cols + c];
}

void launch(const float* x, float* y, int rows, int cols, hipStream_t s) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose<<<grid, block, 0, s>>>(x, y, rows, cols);
}
