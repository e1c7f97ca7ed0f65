// Baseline for the depthwise_conv2d task (launcher mode): one kernel, one thread per output
// pixel, a 2-D block of 32 x 8 threads over a 32 x 8 patch of one (sample, channel) plane
// (grid ceil_div(W, 32) x ceil_div(H, 8) x planes; planes past 65535 loop over blockIdx.z).
// Each thread reads its channel's 25 weights and 25 input taps (bounds-checked, zero padding)
// straight from global memory and accumulates in f32 with FMAs. Neighbouring threads share 24
// of their 25 taps, which only the cache turns into reuse; planes smaller than the block (7 x 7)
// leave most of its threads idle.
// Tensors (declaration order): x f32[N, C, H, W], weight f32[C, 1, K, K], bias f32[C],
// y f32[N, C, H, W]; params (declaration order): N, C, H, W, K (K = 5).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kK = 5;        // the kernel size; the task fixes K = 5
constexpr int kPad = kK / 2;  // "same" padding at stride 1
constexpr int kBx = 32, kBy = 8;

__global__ void depthwise_conv2d(const float* x, const float* weight, const float* bias, float* y,
                                 int64_t planes, int64_t c, int64_t h, int64_t w) {
  const int64_t ow = (int64_t)blockIdx.x * kBx + threadIdx.x;
  const int64_t oh = (int64_t)blockIdx.y * kBy + threadIdx.y;
  if (ow >= w || oh >= h) return;
  for (int64_t plane = blockIdx.z; plane < planes; plane += gridDim.z) {
    const int64_t ch = plane % c;
    const float* xp = x + plane * h * w;
    const float* wc = weight + ch * kK * kK;
    float acc = bias[ch];
#pragma unroll
    for (int i = 0; i < kK; ++i) {
      const int64_t ih = oh + i - kPad;
      if (ih < 0 || ih >= h) continue;
#pragma unroll
      for (int j = 0; j < kK; ++j) {
        const int64_t iw = ow + j - kPad;
        if (iw < 0 || iw >= w) continue;
        acc = fmaf(wc[i * kK + j], xp[ih * w + iw], acc);
      }
    }
    y[plane * h * w + oh * w + ow] = acc;
  }
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
  const dim3 grid((unsigned)((w + kBx - 1) / kBx), (unsigned)((h + kBy - 1) / kBy),
                  (unsigned)(planes < 65535 ? planes : 65535));
  depthwise_conv2d<<<grid, dim3(kBx, kBy), 0, (hipStream_t)call->stream>>>(x, weight, bias, y,
                                                                          planes, c, h, w);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
