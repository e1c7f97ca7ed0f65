// Dynamic shared memory sized at launch from the row length.
#include <hip/hip_runtime.h>

__global__ void row_scale(const float* x, float* y, int cols) {
  extern __shared__ float row[];
  const float* in = x + (size_t)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] = in[c];
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)blockIdx.x * cols + c] = row[c] * row[cols - 1];
}

void launch(const float* x, float* y, int rows, int cols, hipStream_t s) {
  row_scale<<<rows, 256, cols * sizeof(float), s>>>(x, y, cols);
}
