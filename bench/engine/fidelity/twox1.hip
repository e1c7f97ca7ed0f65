// The memory-bound probe of the timing-fidelity measurement: y = 2x + 1 (bench/hip/kernels).
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void twox1(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}
