// Correct, and it compiles on the cpu device (C++20), but `consteval` is not C++17, the
// language the analyzer (and hipcc) read: the audit cannot parse it, and its gate says so.
#include <hip/hip_runtime.h>

consteval float factor() { return 2.0f; }

__global__ void scale(const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = factor() * x[i];
}
