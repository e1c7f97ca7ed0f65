// Starter for the batch_norm2d task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per channel walks that channel's N * H * W values three
// times (the sum, the squared deviations from the mean, then the normalized output), each
// reduction a shared-memory tree with a barrier per level. Only C blocks run, and each element's
// (n, h*w) position costs a division.
// Tensors (declaration order): x f32[N, C, H, W], weight f32[C], bias f32[C], y f32[N, C, H, W];
// params N, C, H, W, eps.
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

__global__ void batch_norm2d(const float* x, const float* weight, const float* bias, float* y,
                             int64_t N, int64_t C, int64_t HW, float eps) {
  __shared__ float red[kThreads];
  const int64_t c = blockIdx.x;
  if (c >= C) return;  // uniform across the block
  const int64_t count = N * HW;

  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < count; i += kThreads) {
    const int64_t n = i / HW, j = i % HW;
    sum += x[(n * C + c) * HW + j];
  }
  const float mean = block_sum(sum, red) / (float)count;

  float sq = 0.0f;
  for (int64_t i = threadIdx.x; i < count; i += kThreads) {
    const int64_t n = i / HW, j = i % HW;
    const float d = x[(n * C + c) * HW + j] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)count + eps);

  const float w = weight[c], b = bias[c];
  for (int64_t i = threadIdx.x; i < count; i += kThreads) {
    const int64_t n = i / HW, j = i % HW;
    const int64_t idx = (n * C + c) * HW + j;
    y[idx] = (x[idx] - mean) * rstd * w + b;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* weight = (const float*)call->tensors[1].data;
  const float* bias = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t N = call->params[0].i, C = call->params[1].i;
  const int64_t H = call->params[2].i, W = call->params[3].i;
  const float eps = (float)call->params[4].f;
  batch_norm2d<<<(unsigned)C, kThreads, 0, (hipStream_t)call->stream>>>(x, weight, bias, y, N, C,
                                                                       H * W, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
