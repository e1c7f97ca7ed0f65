#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void row_sum(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float partial[256];
  const int64_t row = blockIdx.x;
  float s = 0;
  for (int64_t c = threadIdx.x; c < n; c += blockDim.x) s += x[row * n + c];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int w = 128; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[row] = partial[0];
}
