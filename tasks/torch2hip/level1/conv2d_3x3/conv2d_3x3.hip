// Starter for the conv2d_3x3 task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output element loops over the C x 3 x 3 window straight from
// global memory, checking the padding on every tap; nothing is reused between threads.
// Tensors (declaration order): x f32[N, C, H, W], w f32[K, C, 3, 3], b f32[K],
// y f32[N, K, H, W]; params N, C, H, W, K.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void conv2d_3x3(const float* x, const float* w, const float* b, float* y, int64_t N,
                           int64_t C, int64_t H, int64_t W, int64_t K) {
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
  y[idx] = acc;
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
  const int64_t total = N * K * H * W;
  const int threads = 256;
  conv2d_3x3<<<(unsigned)((total + threads - 1) / threads), threads, 0,
               (hipStream_t)call->stream>>>(x, w, b, y, N, C, H, W, K);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
