// Starter for the layernorm_gelu task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row: the mean and then the variance around it are
// each a shared-memory tree reduction (a barrier per level) over a fresh read of the row, and a
// third read applies the affine map and the exact GELU, 0.5 z (1 + erf(z / sqrt(2))).
// Tensors (declaration order): x f32[M, N], weight f32[N], bias f32[N], y f32[M, N];
// params M, N, eps.
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

__global__ void layernorm_gelu(const float* x, const float* weight, const float* bias, float* y,
                               int64_t M, int64_t N, float eps) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const float* xr = x + row * N;
  float* yr = y + row * N;

  float sum = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) sum += xr[k];
  const float mean = block_sum(sum, red) / (float)N;

  float sq = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) {
    const float d = xr[k] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)N + eps);

  for (int64_t k = threadIdx.x; k < N; k += kThreads) {
    const float z = (xr[k] - mean) * rstd * weight[k] + bias[k];
    yr[k] = 0.5f * z * (1.0f + erff(z * 0.70710678118654752f));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* weight = (const float*)call->tensors[1].data;
  const float* bias = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float eps = (float)call->params[2].f;
  layernorm_gelu<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, weight, bias, y, M, N,
                                                                          eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
