// Baseline for the rotary_embedding task: rotary embedding, rotate-half layout, base 10000, position = token
// index. Launched with one block of 128 threads per token (grid T, block 128); the threads walk
// the token's H * D/2 (head, frequency) pairs, p = tid, tid + 128, ..., and for each pair compute
// inv_freq = 10000^(-2i/D) with powf, the angle and its sincosf (in f32), then rotate the two f16
// values q[t, h, i] and q[t, h, i + D/2], loaded and stored one at a time. Every head of a token
// recomputes the same D/2 sines and cosines.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void rotary_embedding(const __half* q, __half* y, int64_t t_len, int64_t heads, int64_t d) {
  const int64_t t = blockIdx.x;
  if (t >= t_len) return;
  const int64_t half = d / 2;
  const __half* qt = q + t * heads * d;
  __half* yt = y + t * heads * d;
  for (int64_t p = threadIdx.x; p < heads * half; p += blockDim.x) {
    const int64_t h = p / half;
    const int64_t i = p - h * half;
    const float inv_freq = powf(10000.0f, -(float)(2 * i) / (float)d);
    const float angle = (float)t * inv_freq;
    float s, c;
    sincosf(angle, &s, &c);
    const float x1 = __half2float(qt[h * d + i]);
    const float x2 = __half2float(qt[h * d + i + half]);
    yt[h * d + i] = __float2half(x1 * c - x2 * s);
    yt[h * d + i + half] = __float2half(x2 * c + x1 * s);
  }
}
