// Reference for the dequant_int8_matmul task: one thread per output y[m, n]. The dot product of
// row m of x with row n of W is summed in double precision (exact products of f16 and int8
// values), scaled by scale[n] and rounded once to f16.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void dequant_int8_matmul_ref(const __half* __restrict__ x,
                                        const int8_t* __restrict__ w,
                                        const float* __restrict__ scale, __half* __restrict__ y,
                                        int64_t m, int64_t n, int64_t k) {
  const int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= m * n) return;
  const int64_t row = o / n, col = o % n;
  const __half* xr = x + row * k;
  const int8_t* wr = w + col * k;
  double acc = 0.0;
  for (int64_t i = 0; i < k; ++i) acc += (double)__half2float(xr[i]) * (double)wr[i];
  y[o] = __float2half((float)(acc * (double)scale[col]));
}
