// Case crash: dereferences a null pointer (SIGSEGV in the worker).
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    volatile float* p = (volatile float*)(uintptr_t)(n - n);
    *p = 1.0f;
  }
  if (i < n) z[i] = x[i] + y[i];
}
