// Reference for the rotary_embedding task: one thread per (token, head, frequency) pair. inv_freq, the
// angle, its cosine and sine and the rotation are evaluated in double precision, from the
// definition, and the two outputs rounded once to f16.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void rotary_embedding_ref(const __half* __restrict__ q, __half* __restrict__ y, int64_t t_len,
                         int64_t heads, int64_t d) {
  const int64_t half = d / 2;
  const int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= t_len * heads * half) return;
  const int64_t i = p % half;
  const int64_t row = p / half;  // t * heads + h
  const int64_t t = row / heads;
  const double inv_freq = pow(10000.0, -2.0 * (double)i / (double)d);
  const double angle = (double)t * inv_freq;
  const double c = cos(angle), s = sin(angle);
  const double x1 = __half2float(q[row * d + i]);
  const double x2 = __half2float(q[row * d + i + half]);
  y[row * d + i] = __float2half((float)(x1 * c - x2 * s));
  y[row * d + i + half] = __float2half((float)(x2 * c + x1 * s));
}
