// Starter for the conv_relu_maxpool task: a direct HIP translation of the module's steps,
// correct for every size and unoptimized. Two kernels and a scratch buffer:
//  1. conv: one thread per full-resolution output element loops over the C x 3 x 3 window
//     straight from global memory (checking the zero padding on every tap) and writes conv +
//     bias to a hipMalloc'd [N, K, H, W] buffer z;
//  2. relu_maxpool: one thread per pooled output reads its 2x2 window of z and writes the
//     maximum of max(0, z) (a last odd row or column of z belongs to no window).
// Tensors (declaration order): x f32[N, C, H, W], w f32[K, C, 3, 3], b f32[K],
// y f32[N, K, H / 2, W / 2]; params N, C, H, W, K.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

__global__ void conv(const float* x, const float* w, const float* b, float* z, int64_t N, int64_t C,
                     int64_t H, int64_t W, int64_t K) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * K * H * W) return;
  const int64_t ox = idx % W, oy = (idx / W) % H, kk = (idx / (W * H)) % K, n = idx / (W * H * K);
  float acc = b[kk];
  for (int64_t c = 0; c < C; ++c) {
    const float* xc = x + (n * C + c) * H * W;
    const float* wc = w + (kk * C + c) * 9;
    for (int dy = 0; dy < 3; ++dy) {
      const int64_t iy = oy + dy - 1;
      if (iy < 0 || iy >= H) continue;
      for (int dx = 0; dx < 3; ++dx) {
        const int64_t ix = ox + dx - 1;
        if (ix < 0 || ix >= W) continue;
        acc += xc[iy * W + ix] * wc[dy * 3 + dx];
      }
    }
  }
  z[idx] = acc;
}

__global__ void relu_maxpool(const float* z, float* y, int64_t planes, int64_t H, int64_t W,
                             int64_t Ho, int64_t Wo) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= planes * Ho * Wo) return;
  const int64_t px = idx % Wo, py = (idx / Wo) % Ho, p = idx / (Wo * Ho);
  const float* zp = z + p * H * W + (2 * py) * W + 2 * px;
  const float m = fmaxf(fmaxf(zp[0], zp[1]), fmaxf(zp[W], zp[W + 1]));
  y[idx] = fmaxf(m, 0.0f);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t N = call->params[0].i, C = call->params[1].i, H = call->params[2].i;
  const int64_t W = call->params[3].i, K = call->params[4].i;
  const int64_t Ho = H / 2, Wo = W / 2;
  hipStream_t stream = (hipStream_t)call->stream;
  const int threads = 256;

  float* z = nullptr;
  const int64_t total = N * K * H * W;
  if (hipMalloc((void**)&z, total * sizeof(float)) != hipSuccess) return 2;
  conv<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(x, w, b, z, N, C, H, W,
                                                                            K);
  const int64_t pooled = N * K * Ho * Wo;
  relu_maxpool<<<(unsigned)((pooled + threads - 1) / threads), threads, 0, stream>>>(z, y, N * K, H,
                                                                                     W, Ho, Wo);
  const bool ok = hipGetLastError() == hipSuccess;
  const bool freed = hipFree(z) == hipSuccess;
  return ok && freed ? 0 : 3;
}
