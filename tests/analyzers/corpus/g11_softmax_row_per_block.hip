// One block per row; threads stride over the columns.
#include <hip/hip_runtime.h>

__global__ void softmax(const float* x, float* y, int rows, int cols) {
  int row = blockIdx.x;
  if (row >= rows) return;
  const float* in = x + (size_t)row * cols;
  float* out = y + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, in[c]);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(in[c] - m);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(in[c] - m) / s;
}
