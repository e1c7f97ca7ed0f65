// Reference for the decode_attention task: one thread per (batch, head) output row, everything
// in double precision: a pass over the keys for the maximum score, a second pass for the
// exponentials, their sum and the weighted sum of the values, then one rounding to f16.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

constexpr int kMaxD = 128;

__global__ void decode_attention_ref(const __half* __restrict__ q, const __half* __restrict__ k,
                                     const __half* __restrict__ v, __half* __restrict__ o,
                                     int64_t B, int64_t H, int64_t S, int64_t D) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= B * H || D > kMaxD) return;  // D is 64 or 128 by the task
  const __half* qr = q + row * D;
  const __half* kr = k + row * S * D;
  const __half* vr = v + row * S * D;
  const double scale = 1.0 / sqrt((double)D);

  double m = -INFINITY;
  for (int64_t j = 0; j < S; ++j) {
    double dot = 0.0;
    for (int64_t d = 0; d < D; ++d)
      dot += (double)__half2float(qr[d]) * (double)__half2float(kr[j * D + d]);
    m = fmax(m, dot * scale);
  }

  double acc[kMaxD];
  for (int64_t d = 0; d < D; ++d) acc[d] = 0.0;
  double l = 0.0;
  for (int64_t j = 0; j < S; ++j) {
    double dot = 0.0;
    for (int64_t d = 0; d < D; ++d)
      dot += (double)__half2float(qr[d]) * (double)__half2float(kr[j * D + d]);
    const double p = exp(dot * scale - m);
    l += p;
    for (int64_t d = 0; d < D; ++d) acc[d] += p * (double)__half2float(vr[j * D + d]);
  }
  for (int64_t d = 0; d < D; ++d) o[row * D + d] = __float2half((float)(acc[d] / l));
}
