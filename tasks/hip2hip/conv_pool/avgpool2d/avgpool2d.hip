// Baseline for the avgpool2d task: one thread per output element (grid ceil_div(N*C*HO*WO,
// 256), block 256). The flat index is split into (plane, oh, ow) with 64-bit divisions, the
// window is clipped to the input once, its taps are summed in f32 with scalar loads from global
// memory, and the sum is divided by the number of taps inside the input
// (count_include_pad=False). Overlapping windows (K > S) re-read their shared inputs.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void avgpool2d(const float* x, float* y, int64_t n, int64_t c, int64_t h, int64_t w,
                          int64_t k, int64_t s, int64_t p, int64_t ho, int64_t wo) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * c * ho * wo) return;
  const int64_t ow = t % wo;
  const int64_t oh = (t / wo) % ho;
  const int64_t plane = t / (wo * ho);
  const int64_t h0 = oh * s - p, w0 = ow * s - p;
  const int64_t hs = h0 < 0 ? 0 : h0, he = h0 + k < h ? h0 + k : h;
  const int64_t ws = w0 < 0 ? 0 : w0, we = w0 + k < w ? w0 + k : w;
  const float* xp = x + plane * h * w;
  float sum = 0.0f;
  for (int64_t ih = hs; ih < he; ++ih)
    for (int64_t iw = ws; iw < we; ++iw) sum += xp[ih * w + iw];
  y[t] = sum / (float)((he - hs) * (we - ws));
}
