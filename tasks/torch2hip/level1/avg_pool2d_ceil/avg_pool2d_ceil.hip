// Starter for the avg_pool2d_ceil task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output element clips its K x K window to the plane, sums the real
// inputs straight from global memory and divides by their count (count_include_pad=False);
// neighbouring windows re-read the inputs they share.
// Tensors (declaration order): x f32[N, C, H, W], y f32[N, C, Ho, Wo]; params N, C, H, W, K, S, P.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

// PyTorch's ceil-mode output size: ceil((n + 2p - k) / s) + 1, minus one when the last window
// would start at or past n + p (entirely in the right padding).
static int64_t out_size(int64_t n, int64_t k, int64_t s, int64_t p) {
  int64_t o = (n + 2 * p - k + s - 1) / s + 1;
  if ((o - 1) * s >= n + p) --o;
  return o;
}

__global__ void avg_pool2d_ceil(const float* x, float* y, int64_t planes, int64_t H, int64_t W,
                                int64_t Ho, int64_t Wo, int64_t K, int64_t S, int64_t P) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= planes * Ho * Wo) return;
  const int64_t ox = idx % Wo, oy = (idx / Wo) % Ho, pl = idx / (Wo * Ho);
  const float* xp = x + pl * H * W;
  const int64_t y0 = oy * S - P, x0 = ox * S - P;
  const int64_t ys = y0 < 0 ? 0 : y0, ye = y0 + K < H ? y0 + K : H;
  const int64_t xs = x0 < 0 ? 0 : x0, xe = x0 + K < W ? x0 + K : W;
  float sum = 0.0f;
  for (int64_t iy = ys; iy < ye; ++iy)
    for (int64_t ix = xs; ix < xe; ++ix) sum += xp[iy * W + ix];
  y[idx] = sum / (float)((ye - ys) * (xe - xs));
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 7)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t N = call->params[0].i, C = call->params[1].i;
  const int64_t H = call->params[2].i, W = call->params[3].i;
  const int64_t K = call->params[4].i, S = call->params[5].i, P = call->params[6].i;
  const int64_t Ho = out_size(H, K, S, P), Wo = out_size(W, K, S, P);
  const int64_t total = N * C * Ho * Wo;
  const int threads = 256;
  avg_pool2d_ceil<<<(unsigned)((total + threads - 1) / threads), threads, 0,
                    (hipStream_t)call->stream>>>(x, y, N * C, H, W, Ho, Wo, K, S, P);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
