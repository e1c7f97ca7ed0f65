// Reference for the silu task: y = x * sigmoid(x) = x / (1 + exp(-x)), evaluated in double
// precision and rounded to f16 (through f32; the double rounding can move a result by one f16
// ulp in rare ties, which the tolerance covers).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void silu_ref(const __half* __restrict__ x, __half* __restrict__ y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const double v = (double)__half2float(x[i]);
    y[i] = __float2half((float)(v / (1.0 + exp(-v))));
  }
}
