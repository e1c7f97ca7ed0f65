// Reference for the swiglu task: y = silu(a) * b = a / (1 + exp(-a)) * b, one thread per
// element, evaluated in double precision and rounded to bf16 (through f32; the double rounding
// can move a result by one bf16 ulp in rare ties, which the tolerance covers).
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void swiglu_ref(const __hip_bfloat16* __restrict__ a,
                           const __hip_bfloat16* __restrict__ b, __hip_bfloat16* __restrict__ y,
                           int64_t m, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m * n) {
    const double va = (double)__bfloat162float(a[i]);
    const double vb = (double)__bfloat162float(b[i]);
    y[i] = __float2bfloat16((float)(va / (1.0 + exp(-va)) * vb));
  }
}
