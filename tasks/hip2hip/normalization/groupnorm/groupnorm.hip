// Baseline for the groupnorm task (launcher mode): one kernel, one block of 256 threads per
// (sample, group). A group's C/G channels of H*W values are contiguous in NCHW, so the block
// reads them as one span: the mean, then the variance around it, each a strided sum per thread
// and a shared-memory tree with a __syncthreads per level, then the normalization with the
// channel's weight and bias. With few samples and groups the grid is small (N*G blocks) and each
// block walks a long span three times.
// Tensors (declaration order): x f32[N, C, H, W], weight f32[C], bias f32[C], y f32[N, C, H, W];
// params (declaration order): N, C, H, W, G, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

__global__ void groupnorm(const float* x, const float* weight, const float* bias, float* y,
                          int64_t c, int64_t hw, int64_t g, float eps) {
  __shared__ float red[kThreads];
  const int64_t grp = blockIdx.x;  // sample * g + group
  const int64_t cpg = c / g;
  const int64_t len = cpg * hw;
  const int64_t base = grp * len;
  const int64_t c0 = (grp % g) * cpg;
  const float* xg = x + base;
  float* yg = y + base;

  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < len; i += kThreads) sum += xg[i];
  const float mean = block_sum(sum, red) / (float)len;

  float sq = 0.0f;
  for (int64_t i = threadIdx.x; i < len; i += kThreads) {
    const float d = xg[i] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)len + eps);

  for (int64_t i = threadIdx.x; i < len; i += kThreads) {
    const int64_t ch = c0 + i / hw;
    yg[i] = (xg[i] - mean) * rstd * weight[ch] + bias[ch];
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 6)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* weight = (const float*)call->tensors[1].data;
  const float* bias = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t n = call->params[0].i, c = call->params[1].i;
  const int64_t h = call->params[2].i, w = call->params[3].i, g = call->params[4].i;
  const float eps = (float)call->params[5].f;
  if (g <= 0 || c % g != 0) return 3;
  groupnorm<<<(unsigned)(n * g), kThreads, 0, (hipStream_t)call->stream>>>(x, weight, bias, y, c,
                                                                          h * w, g, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
