// Starter for the conv_bn_relu task: a direct HIP translation of the module's three steps,
// correct for every size and unoptimized. Two kernels:
//  1. conv: one thread per output element loops over the C x 3 x 3 window straight from global
//     memory (checking the zero padding on every tap) and writes conv + bias to y;
//  2. bn_relu: one thread per element of y reads it back, applies the channel's batch norm
//     ((z - mean) / sqrt(var + eps) * gamma + beta) and ReLU, and writes it again.
// Tensors (declaration order): x f32[N, C, H, W], w f32[K, C, 3, 3], b f32[K], mean f32[K],
// var f32[K], gamma f32[K], beta f32[K], y f32[N, K, Ho, Wo] with Ho = (H - 1) / stride + 1,
// Wo = (W - 1) / stride + 1; params N, C, H, W, K, stride, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

__global__ void conv(const float* x, const float* w, const float* b, float* y, int64_t N, int64_t C,
                     int64_t H, int64_t W, int64_t K, int64_t stride, int64_t Ho, int64_t Wo) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * K * Ho * Wo) return;
  const int64_t ox = idx % Wo, oy = (idx / Wo) % Ho, kk = (idx / (Wo * Ho)) % K;
  const int64_t n = idx / (Wo * Ho * K);
  float acc = b[kk];
  for (int64_t c = 0; c < C; ++c) {
    const float* xc = x + (n * C + c) * H * W;
    const float* wc = w + (kk * C + c) * 9;
    for (int dy = 0; dy < 3; ++dy) {
      const int64_t iy = oy * stride + dy - 1;
      if (iy < 0 || iy >= H) continue;
      for (int dx = 0; dx < 3; ++dx) {
        const int64_t ix = ox * stride + dx - 1;
        if (ix < 0 || ix >= W) continue;
        acc += xc[iy * W + ix] * wc[dy * 3 + dx];
      }
    }
  }
  y[idx] = acc;
}

__global__ void bn_relu(float* y, const float* mean, const float* var, const float* gamma,
                        const float* beta, int64_t total, int64_t K, int64_t plane, float eps) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int64_t kk = (idx / plane) % K;
  const float v = (y[idx] - mean[kk]) / sqrtf(var[kk] + eps) * gamma[kk] + beta[kk];
  y[idx] = fmaxf(v, 0.0f);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 8 || call->num_params != 7)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  const float* mean = (const float*)call->tensors[3].data;
  const float* var = (const float*)call->tensors[4].data;
  const float* gamma = (const float*)call->tensors[5].data;
  const float* beta = (const float*)call->tensors[6].data;
  float* y = (float*)call->tensors[7].data;
  const int64_t N = call->params[0].i, C = call->params[1].i, H = call->params[2].i;
  const int64_t W = call->params[3].i, K = call->params[4].i, stride = call->params[5].i;
  const float eps = (float)call->params[6].f;
  const int64_t Ho = (H - 1) / stride + 1, Wo = (W - 1) / stride + 1;
  const int64_t total = N * K * Ho * Wo;
  const int threads = 256;
  const unsigned blocks = (unsigned)((total + threads - 1) / threads);
  hipStream_t stream = (hipStream_t)call->stream;
  conv<<<blocks, threads, 0, stream>>>(x, w, b, y, N, C, H, W, K, stride, Ho, Wo);
  bn_relu<<<blocks, threads, 0, stream>>>(y, mean, var, gamma, beta, total, K, Ho * Wo, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
