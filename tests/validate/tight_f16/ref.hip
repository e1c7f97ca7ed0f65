#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void exp_ref(const __half* x, __half* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half((float)exp((double)__half2float(x[i])));
}
