// Starter for the max_pool2d_dilated task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output element scans its K x K window of taps D apart straight
// from global memory, checking the padding (which counts as -inf) on every tap; neighbouring
// windows re-read the inputs they share.
// Tensors (declaration order): x f32[N, C, H, W], y f32[N, C, Ho, Wo];
// params N, C, H, W, K, S, P, D.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

__global__ void max_pool2d_dilated(const float* x, float* y, int64_t planes, int64_t H, int64_t W,
                                   int64_t Ho, int64_t Wo, int64_t K, int64_t S, int64_t P,
                                   int64_t D) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= planes * Ho * Wo) return;
  const int64_t ox = idx % Wo, oy = (idx / Wo) % Ho, pl = idx / (Wo * Ho);
  const float* xp = x + pl * H * W;
  const int64_t y0 = oy * S - P, x0 = ox * S - P;
  float m = -INFINITY;
  for (int64_t ky = 0; ky < K; ++ky) {
    const int64_t iy = y0 + ky * D;
    if (iy < 0 || iy >= H) continue;
    for (int64_t kx = 0; kx < K; ++kx) {
      const int64_t ix = x0 + kx * D;
      if (ix < 0 || ix >= W) continue;
      m = fmaxf(m, xp[iy * W + ix]);
    }
  }
  y[idx] = m;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 8)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t N = call->params[0].i, C = call->params[1].i;
  const int64_t H = call->params[2].i, W = call->params[3].i;
  const int64_t K = call->params[4].i, S = call->params[5].i;
  const int64_t P = call->params[6].i, D = call->params[7].i;
  const int64_t Ho = (H + 2 * P - D * (K - 1) - 1) / S + 1;
  const int64_t Wo = (W + 2 * P - D * (K - 1) - 1) / S + 1;
  const int64_t total = N * C * Ho * Wo;
  const int threads = 256;
  max_pool2d_dilated<<<(unsigned)((total + threads - 1) / threads), threads, 0,
                       (hipStream_t)call->stream>>>(x, y, N * C, H, W, Ho, Wo, K, S, P, D);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
