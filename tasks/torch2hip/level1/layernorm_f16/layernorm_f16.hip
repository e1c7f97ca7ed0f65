// Starter for the layernorm_f16 task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row; the mean and then the variance around it are
// each a shared-memory tree reduction (a barrier per level), and f16 values are read and written
// one at a time. Arithmetic is in f32, as in the PyTorch module.
// Tensors (declaration order): x f16[M, N], gamma f16[N], beta f16[N], y f16[M, N];
// params M, N, eps.
#include <hip/hip_fp16.h>
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

__global__ void layernorm_f16(const __half* x, const __half* gamma, const __half* beta, __half* y,
                              int64_t M, int64_t N, float eps) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const __half* xr = x + row * N;
  __half* yr = y + row * N;

  float sum = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) sum += __half2float(xr[k]);
  const float mean = block_sum(sum, red) / (float)N;

  float sq = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) {
    const float d = __half2float(xr[k]) - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)N + eps);

  for (int64_t k = threadIdx.x; k < N; k += kThreads) {
    const float v = (__half2float(xr[k]) - mean) * rstd;
    yr[k] = __float2half(v * __half2float(gamma[k]) + __half2float(beta[k]));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const __half* x = (const __half*)call->tensors[0].data;
  const __half* gamma = (const __half*)call->tensors[1].data;
  const __half* beta = (const __half*)call->tensors[2].data;
  __half* y = (__half*)call->tensors[3].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float eps = (float)call->params[2].f;
  layernorm_f16<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, gamma, beta, y, M, N,
                                                                        eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
