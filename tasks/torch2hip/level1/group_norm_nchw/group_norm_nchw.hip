// Starter for the group_norm_nchw task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per (sample, group) walks the group's CG * H * W
// contiguous values three times (the sum, the squared deviations from the mean, then the
// normalized output with its channel's weight and bias), each reduction a shared-memory tree
// with a barrier per level; each output's channel costs a division.
// Tensors (declaration order): x f32[N, G*CG, H, W], weight f32[G*CG], bias f32[G*CG],
// y f32[N, G*CG, H, W]; params N, G, CG, H, W, eps.
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

__global__ void group_norm_nchw(const float* x, const float* weight, const float* bias, float* y,
                                int64_t NG, int64_t G, int64_t CG, int64_t HW, float eps) {
  __shared__ float red[kThreads];
  const int64_t ng = blockIdx.x;  // n * G + g
  if (ng >= NG) return;           // uniform across the block
  const int64_t g = ng % G;
  const int64_t len = CG * HW;
  const float* xg = x + ng * len;
  float* yg = y + ng * len;

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
    const int64_t c = g * CG + i / HW;
    yg[i] = (xg[i] - mean) * rstd * weight[c] + bias[c];
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 6)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* weight = (const float*)call->tensors[1].data;
  const float* bias = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t N = call->params[0].i, G = call->params[1].i, CG = call->params[2].i;
  const int64_t H = call->params[3].i, W = call->params[4].i;
  const float eps = (float)call->params[5].f;
  group_norm_nchw<<<(unsigned)(N * G), kThreads, 0, (hipStream_t)call->stream>>>(
      x, weight, bias, y, N * G, G, CG, H * W, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
