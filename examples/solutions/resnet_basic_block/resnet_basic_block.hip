// A faster resnet_basic_block, general in N, C, H and W (any size, no alignment assumed): two
// kernels instead of the module's six passes, each a direct 3x3 convolution tiled through shared
// memory with its batch norm folded into a per-channel scale and shift and applied, with the
// ReLU (and for the second, the residual), in the epilogue:
//   1. t = relu(conv(x, w1) * s1 + b1'),  s = weight / sqrt(var + eps),  b' = bias - mean * s;
//   2. y = relu(conv(t, w2) * s2 + b2' + x).
// The convolution (the tiling of the conv2d_3x3 solution): a block of 16 x 8 threads computes a
// 16 x 8 patch of output pixels for 4 output channels, each thread one pixel and 4 channels in
// registers. Input channels advance in chunks of 8: the chunk's 18 x 10 input halo (zero outside
// the image, which is the padding) and the 4 x 8 x 9 weights are staged in shared memory, so each
// input value is loaded once per block instead of 36 times and no tap checks bounds. The grid is
// flat (pixel tiles, then channel tiles, then images), so no size meets a 65535 grid limit. t
// lives in a static __device__ buffer when it fits (no allocation on the timed path: hipFree
// would also wait for the device; the kernels take a null pointer to mean it), in hipMalloc'd
// scratch beyond.
// Tensors (declaration order): x f32[N, C, H, W], w1 f32[C, C, 3, 3], bn1_mean, bn1_var,
// bn1_weight, bn1_bias f32[C], w2 f32[C, C, 3, 3], bn2_mean, bn2_var, bn2_weight, bn2_bias
// f32[C], y f32[N, C, H, W]; params N, C, H, W, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int TW = 16;                   // output tile width (pixels); the block is TW x TH threads
constexpr int TH = 8;                    // output tile height
constexpr int KT = 4;                    // output channels per block
constexpr int CC = 8;                    // input channels per staged chunk
constexpr int HW = TW + 2, HH = TH + 2;  // the halo
constexpr int64_t kStaticT = 1 << 20;    // floats (4 MiB)

__device__ float g_t[kStaticT];  // t [N, C, H, W] when N * C * H * W <= kStaticT

struct BatchNorm {
  const float* mean;
  const float* var;
  const float* weight;
  const float* bias;
};

template <bool RESIDUAL>
__global__ __launch_bounds__(TW* TH) void conv_bn_relu(const float* __restrict__ in,
                                                       const float* __restrict__ w, BatchNorm bn,
                                                       const float* __restrict__ res,
                                                       float* __restrict__ out, int64_t N,
                                                       int64_t C, int64_t H, int64_t W, float eps) {
  __shared__ float xs[CC][HH][HW];
  __shared__ float wsm[KT][CC][9];
  if (in == nullptr) in = g_t;  // null means the static buffer for t
  if (out == nullptr) out = g_t;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TW + tx;
  const int64_t tiles_x = (W + TW - 1) / TW, tiles_y = (H + TH - 1) / TH;
  const int64_t tiles_k = (C + KT - 1) / KT;
  int64_t blk = blockIdx.x;
  const int64_t ox0 = (blk % tiles_x) * TW;
  blk /= tiles_x;
  const int64_t oy0 = (blk % tiles_y) * TH;
  blk /= tiles_y;
  const int64_t k0 = (blk % tiles_k) * KT;
  const int64_t n = blk / tiles_k;
  if (n >= N) return;  // uniform across the block

  float acc[KT];
  for (int t = 0; t < KT; ++t) acc[t] = 0.0f;

  for (int64_t c0 = 0; c0 < C; c0 += CC) {
    for (int l = tid; l < CC * HH * HW; l += TW * TH) {
      const int cc = l / (HH * HW), r = (l / HW) % HH, q = l % HW;
      const int64_t c = c0 + cc, iy = oy0 + r - 1, ix = ox0 + q - 1;
      const bool inside = c < C && iy >= 0 && iy < H && ix >= 0 && ix < W;
      xs[cc][r][q] = inside ? in[((n * C + c) * H + iy) * W + ix] : 0.0f;
    }
    for (int l = tid; l < KT * CC * 9; l += TW * TH) {
      const int t = l / (CC * 9), cc = (l / 9) % CC, tap = l % 9;
      const int64_t kk = k0 + t, c = c0 + cc;
      wsm[t][cc][tap] = (kk < C && c < C) ? w[(kk * C + c) * 9 + tap] : 0.0f;
    }
    __syncthreads();
    for (int cc = 0; cc < CC; ++cc) {
      float win[9];
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) win[dy * 3 + dx] = xs[cc][ty + dy][tx + dx];
      for (int t = 0; t < KT; ++t)
        for (int tap = 0; tap < 9; ++tap) acc[t] += win[tap] * wsm[t][cc][tap];
    }
    __syncthreads();
  }

  const int64_t oy = oy0 + ty, ox = ox0 + tx;
  if (oy >= H || ox >= W) return;
  for (int t = 0; t < KT; ++t) {
    const int64_t kk = k0 + t;
    if (kk >= C) break;
    const float s = bn.weight[kk] / sqrtf(bn.var[kk] + eps);
    const float shift = bn.bias[kk] - bn.mean[kk] * s;
    const int64_t at = ((n * C + kk) * H + oy) * W + ox;
    float v = acc[t] * s + shift;
    if (RESIDUAL) v += res[at];
    out[at] = fmaxf(v, 0.0f);
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 12 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w1 = (const float*)call->tensors[1].data;
  const BatchNorm bn1 = {(const float*)call->tensors[2].data, (const float*)call->tensors[3].data,
                         (const float*)call->tensors[4].data, (const float*)call->tensors[5].data};
  const float* w2 = (const float*)call->tensors[6].data;
  const BatchNorm bn2 = {(const float*)call->tensors[7].data, (const float*)call->tensors[8].data,
                         (const float*)call->tensors[9].data, (const float*)call->tensors[10].data};
  float* y = (float*)call->tensors[11].data;
  const int64_t N = call->params[0].i, C = call->params[1].i, H = call->params[2].i;
  const int64_t W = call->params[3].i;
  const float eps = (float)call->params[4].f;
  hipStream_t stream = (hipStream_t)call->stream;

  const int64_t blocks = ((W + TW - 1) / TW) * ((H + TH - 1) / TH) * ((C + KT - 1) / KT) * N;
  float* t = nullptr;  // g_t
  const bool dynamic = N * C * H * W > kStaticT;
  if (dynamic && hipMalloc((void**)&t, N * C * H * W * sizeof(float)) != hipSuccess) return 3;
  conv_bn_relu<false>
      <<<(unsigned)blocks, dim3(TW, TH), 0, stream>>>(x, w1, bn1, nullptr, t, N, C, H, W, eps);
  conv_bn_relu<true>
      <<<(unsigned)blocks, dim3(TW, TH), 0, stream>>>(t, w2, bn2, x, y, N, C, H, W, eps);
  const bool launched = hipGetLastError() == hipSuccess;
  const bool freed = !dynamic || hipFree(t) == hipSuccess;
  return launched && freed ? 0 : 2;
}
