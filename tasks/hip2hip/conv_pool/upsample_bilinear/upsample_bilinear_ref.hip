// Reference for the upsample_bilinear task: one thread per output element, PyTorch's bilinear
// resize with align_corners=False, in double precision, rounded once to f32. For each axis the
// source coordinate of output index d is src = (d + 0.5) * in / out - 0.5, clamped below at 0;
// i0 = floor(src), i1 = min(i0 + 1, in - 1), and the weights are 1 - l and l with l = src - i0.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ static double source_index(int64_t d, int64_t in, int64_t out, int64_t* i0,
                                      int64_t* i1) {
  double src = ((double)d + 0.5) * ((double)in / (double)out) - 0.5;
  if (src < 0.0) src = 0.0;
  const int64_t lo = (int64_t)src;  // floor: src >= 0
  *i0 = lo;
  *i1 = lo < in - 1 ? lo + 1 : lo;
  return src - (double)lo;
}

__global__ void upsample_bilinear_ref(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t n, int64_t c, int64_t h, int64_t w, int64_t ho,
                                      int64_t wo) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * c * ho * wo) return;
  const int64_t ow = t % wo;
  const int64_t oh = (t / wo) % ho;
  const int64_t plane = t / (wo * ho);  // sample * c + channel
  const float* xp = x + plane * h * w;
  int64_t h0, h1, w0, w1;
  const double lh = source_index(oh, h, ho, &h0, &h1);
  const double lw = source_index(ow, w, wo, &w0, &w1);
  const double top = (1.0 - lw) * (double)xp[h0 * w + w0] + lw * (double)xp[h0 * w + w1];
  const double bottom = (1.0 - lw) * (double)xp[h1 * w + w0] + lw * (double)xp[h1 * w + w1];
  y[t] = (float)((1.0 - lh) * top + lh * bottom);
}
