// A faster depthwise 5 x 5 conv2d, general in N, C, H and W (any sizes, planes of 1 x 1 up).
// Compared with the baseline (one output per thread over 32 x 8 blocks per plane, 25 taps and
// 25 weights loaded per output), the launcher picks one of two barrier-free kernels:
//  * dw_rows (planes over 256 pixels): a block of 32 x 8 threads owns a 32 x 32 output tile
//    and each thread computes 4 outputs down a column from a sliding window of 8 input rows x
//    5 columns: 40 input loads for 100 FMAs instead of 100, the 25 weights and the bias loaded
//    once per thread into registers (not once per output), the column bounds checked once per
//    thread and the row bounds once per input row instead of per tap;
//  * dw_flat (planes of at most 256 pixels, e.g. 7 x 7 or 14 x 14): one thread per output over
//    a flat index of all planes, so a block of 256 threads covers several whole planes and
//    its loads and stores are contiguous, instead of a mostly idle 32 x 8 block per plane.
// All blocks are indexed along gridDim.x (up to 2^31 - 1), so N * C may exceed 65535.
// Tensors (declaration order): x f32[N, C, H, W], weight f32[C, 1, K, K], bias f32[C],
// y f32[N, C, H, W]; params (declaration order): N, C, H, W, K (K = 5).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kK = 5;
constexpr int kPad = kK / 2;
constexpr int kTW = 32, kTH = 32;  // output tile of dw_rows
constexpr int kBy = 8;             // threadIdx.y extent: 4 output rows per thread
constexpr int kRows = kTH / kBy;

__global__ void __launch_bounds__(kTW* kBy)
    dw_rows(const float* __restrict__ x, const float* __restrict__ weight,
            const float* __restrict__ bias, float* __restrict__ y, int64_t c, int64_t h, int64_t w,
            int64_t tiles_x, int64_t tiles) {
  const int64_t plane = (int64_t)blockIdx.x / tiles;
  const int64_t t = (int64_t)blockIdx.x - plane * tiles;
  const int64_t tyi = t / tiles_x;
  const int64_t ow = (t - tyi * tiles_x) * kTW + threadIdx.x;
  const int64_t oh0 = tyi * kTH + (int64_t)threadIdx.y * kRows;
  if (ow >= w || oh0 >= h) return;
  const int64_t ch = plane % c;
  const float* xp = x + plane * h * w;

  float wr[kK * kK];
#pragma unroll
  for (int i = 0; i < kK * kK; ++i) wr[i] = weight[ch * kK * kK + i];
  bool colok[kK];
#pragma unroll
  for (int j = 0; j < kK; ++j) colok[j] = ow + j - kPad >= 0 && ow + j - kPad < w;

  const float b = bias[ch];
  float acc[kRows];
#pragma unroll
  for (int o = 0; o < kRows; ++o) acc[o] = b;
#pragma unroll
  for (int ir = 0; ir < kRows + kK - 1; ++ir) {  // input rows oh0 - 2 .. oh0 + 5
    const int64_t ih = oh0 + ir - kPad;
    float v[kK];
    const bool rowok = ih >= 0 && ih < h;
    const float* xr = xp + ih * w + ow - kPad;
#pragma unroll
    for (int j = 0; j < kK; ++j) v[j] = (rowok && colok[j]) ? xr[j] : 0.0f;
#pragma unroll
    for (int o = 0; o < kRows; ++o) {
      const int i = ir - o;  // kernel row that input row ir is for output row o
      if (i < 0 || i >= kK) continue;
#pragma unroll
      for (int j = 0; j < kK; ++j) acc[o] = fmaf(wr[i * kK + j], v[j], acc[o]);
    }
  }
  float* yp = y + plane * h * w + ow;
#pragma unroll
  for (int o = 0; o < kRows; ++o)
    if (oh0 + o < h) yp[(oh0 + o) * w] = acc[o];
}

constexpr int kFlatThreads = 256;

__global__ void __launch_bounds__(kFlatThreads)
    dw_flat(const float* __restrict__ x, const float* __restrict__ weight,
            const float* __restrict__ bias, float* __restrict__ y, int64_t total, int64_t c,
            int64_t h, int64_t w) {
  const int64_t e = (int64_t)blockIdx.x * kFlatThreads + threadIdx.x;
  if (e >= total) return;
  const int64_t hw = h * w;
  const int64_t plane = e / hw, rem = e - plane * hw;
  const int64_t oh = rem / w, ow = rem - oh * w;
  const int64_t ch = plane % c;
  const float* xp = x + plane * hw;
  const float* wc = weight + ch * kK * kK;
  float acc = bias[ch];
#pragma unroll
  for (int i = 0; i < kK; ++i) {
    const int64_t ih = oh + i - kPad;
    if (ih < 0 || ih >= h) continue;
#pragma unroll
    for (int j = 0; j < kK; ++j) {
      const int64_t iw = ow + j - kPad;
      if (iw >= 0 && iw < w) acc = fmaf(wc[i * kK + j], xp[ih * w + iw], acc);
    }
  }
  y[e] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* weight = (const float*)call->tensors[1].data;
  const float* bias = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t n = call->params[0].i, c = call->params[1].i;
  const int64_t h = call->params[2].i, w = call->params[3].i, k = call->params[4].i;
  if (k != kK) return 2;
  const int64_t planes = n * c;
  if (planes <= 0 || h <= 0 || w <= 0) return 0;
  hipStream_t stream = (hipStream_t)call->stream;
  if (h * w <= kFlatThreads) {
    const int64_t total = planes * h * w;
    const int64_t blocks = (total + kFlatThreads - 1) / kFlatThreads;
    if (blocks > 0x7fffffff) return 3;
    dw_flat<<<(unsigned)blocks, kFlatThreads, 0, stream>>>(x, weight, bias, y, total, c, h, w);
  } else {
    const int64_t tiles_x = (w + kTW - 1) / kTW, tiles_y = (h + kTH - 1) / kTH;
    const int64_t tiles = tiles_x * tiles_y;
    if (planes * tiles > 0x7fffffff) return 3;
    dw_rows<<<(unsigned)(planes * tiles), dim3(kTW, kBy), 0, stream>>>(x, weight, bias, y, c, h, w,
                                                                       tiles_x, tiles);
  }
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
