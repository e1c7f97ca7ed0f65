// Reference for the transpose task: y[c, r] = x[r, c], one element per thread.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void transpose_ref(const float* __restrict__ x, float* __restrict__ y, int64_t m,
                              int64_t n) {
  const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t r = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (r < m && c < n) y[c * m + r] = x[r * n + c];
}
