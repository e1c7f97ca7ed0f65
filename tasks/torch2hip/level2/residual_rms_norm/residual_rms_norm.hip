// Starter for the residual_rms_norm task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels, as the module has two steps: an elementwise kernel writes
// h = x + residual (one thread per element), then one block of 256 threads per row reads h back,
// sums its squares with a shared-memory tree reduction (a barrier per level) and writes
// y = h * rsqrt(mean + eps) * weight.
// Tensors (declaration order): x f32[M, N], residual f32[M, N], weight f32[N], h f32[M, N],
// y f32[M, N]; params M, N, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void residual_add(const float* x, const float* residual, float* h, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = x[i] + residual[i];
}

__global__ void rms_norm(const float* h, const float* weight, float* y, int64_t M, int64_t N,
                         float eps) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const float* hr = h + row * N;
  float* yr = y + row * N;
  const int tid = threadIdx.x;

  float sq = 0.0f;
  for (int64_t k = tid; k < N; k += kThreads) sq += hr[k] * hr[k];
  red[tid] = sq;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float rstd = rsqrtf(red[0] / (float)N + eps);

  for (int64_t k = tid; k < N; k += kThreads) yr[k] = hr[k] * rstd * weight[k];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 5 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* residual = (const float*)call->tensors[1].data;
  const float* weight = (const float*)call->tensors[2].data;
  float* h = (float*)call->tensors[3].data;
  float* y = (float*)call->tensors[4].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float eps = (float)call->params[2].f;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t n = M * N;
  residual_add<<<(unsigned)((n + kThreads - 1) / kThreads), kThreads, 0, stream>>>(x, residual, h,
                                                                                   n);
  rms_norm<<<(unsigned)M, kThreads, 0, stream>>>(h, weight, y, M, N, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
