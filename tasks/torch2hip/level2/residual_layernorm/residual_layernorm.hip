// Starter for the residual_layernorm task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels, as PyTorch runs it: one thread per element adds x and residual into
// h; then one block of 256 threads per row reads h back and computes the mean and then the
// variance around it, each with a shared-memory tree reduction (a barrier per level), and writes
// y. h is read three times by the second kernel.
// Tensors (declaration order): x, residual f32[M, N], weight, bias f32[N], h, y f32[M, N];
// params M, N, eps, alpha.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void residual_add(const float* x, const float* residual, float* h, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = x[i] + residual[i];
}

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

__global__ void layernorm_rows(const float* h, const float* weight, const float* bias, float* y,
                               int64_t M, int64_t N, float eps, float alpha) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const float* hr = h + row * N;
  float* yr = y + row * N;

  float sum = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) sum += hr[k];
  const float mean = block_sum(sum, red) / (float)N;

  float sq = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) {
    const float d = hr[k] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)N + eps);

  for (int64_t k = threadIdx.x; k < N; k += kThreads)
    yr[k] = ((hr[k] - mean) * rstd * weight[k] + bias[k]) * alpha;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 6 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* residual = (const float*)call->tensors[1].data;
  const float* weight = (const float*)call->tensors[2].data;
  const float* bias = (const float*)call->tensors[3].data;
  float* h = (float*)call->tensors[4].data;
  float* y = (float*)call->tensors[5].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float eps = (float)call->params[2].f, alpha = (float)call->params[3].f;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t n = M * N;
  residual_add<<<(unsigned)((n + kThreads - 1) / kThreads), kThreads, 0, stream>>>(x, residual, h,
                                                                                   n);
  layernorm_rows<<<(unsigned)M, kThreads, 0, stream>>>(h, weight, bias, y, M, N, eps, alpha);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
