// Case corrupt: correct for its first launches (the correctness gate: 2 points x 2 seeds =
// 10240 threads), then writes nothing — correct-then-corrupt.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ unsigned long long threads_run = 0;

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (atomicAdd(&threads_run, 1ull) >= 10240ull) return;
  if (i < n) z[i] = x[i] + y[i];
}
