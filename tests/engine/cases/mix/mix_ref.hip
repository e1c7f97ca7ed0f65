// Reference for mix: one element per thread.
#include <hip/hip_runtime.h>
#include <stdint.h>

// One element: 1024 dependent rounds of multiply, xor and shift (the same in every file of
// the task: reference, baseline and candidates are each one file).
__host__ __device__ inline int32_t mix_value(int32_t x, int32_t y) {
  uint32_t h = (uint32_t)x;
  for (uint32_t r = 0; r < 1024; ++r) {
    h ^= (uint32_t)y + r;
    h *= 0x9E3779B1u;
    h ^= h >> 15;
  }
  return (int32_t)h;
}

__global__ void mix_ref(const int32_t* x, const int32_t* y, int32_t* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = mix_value(x[i], y[i]);
}
