// A faster layernorm_gelu, general in M and N (any size) and in the warp size: one kernel, and
// for rows of up to 4096 values one read of x. One block of 256 threads per row; each thread
// keeps its values in registers (PER = 1..16 per thread, chosen by N), so the exact two-pass
// statistics (the mean, then the squared deviations around it) cost two block reductions and no
// second read; each reduction is warp shuffles over warpSize lanes, then the warp leaders
// through shared memory (2 barriers instead of 9). The affine map and the exact erf GELU are
// applied from the registers and y is written once. Longer rows fall back to three reads of x
// (the second and third from cache) with the same reductions.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxWarps = kThreads / 16;  // enough for any warp size >= 16

__device__ float block_sum(float v, float* part) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down(v, off);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  const int warps = (kThreads + warpSize - 1) / warpSize;
  float t = 0.0f;
  for (int w = 0; w < warps; ++w) t += part[w];  // broadcast reads
  __syncthreads();                               // part is reused by the next call
  return t;
}

__device__ inline float gelu(float z) { return 0.5f * z * (1.0f + erff(z * 0.70710678118654752f)); }

// PER > 0: the row in registers; PER == 0: any length, three reads.
template <int PER>
__global__ __launch_bounds__(kThreads) void layernorm_gelu(const float* __restrict__ x,
                                                           const float* __restrict__ weight,
                                                           const float* __restrict__ bias,
                                                           float* __restrict__ y, int64_t N,
                                                           float eps) {
  __shared__ float part[kMaxWarps];
  const float* xr = x + (int64_t)blockIdx.x * N;
  float* yr = y + (int64_t)blockIdx.x * N;
  const int tid = threadIdx.x;
  const float inv_n = 1.0f / (float)N;
  if (PER > 0) {
    float v[PER > 0 ? PER : 1];
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      const int64_t j = tid + (int64_t)i * kThreads;
      v[i] = j < N ? xr[j] : 0.0f;
      sum += v[i];
    }
    const float mean = block_sum(sum, part) * inv_n;
    float sq = 0.0f;
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      const int64_t j = tid + (int64_t)i * kThreads;
      const float d = j < N ? v[i] - mean : 0.0f;
      sq += d * d;
    }
    const float rstd = rsqrtf(block_sum(sq, part) * inv_n + eps);
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      const int64_t j = tid + (int64_t)i * kThreads;
      if (j < N) yr[j] = gelu((v[i] - mean) * rstd * weight[j] + bias[j]);
    }
  } else {
    float sum = 0.0f;
    for (int64_t j = tid; j < N; j += kThreads) sum += xr[j];
    const float mean = block_sum(sum, part) * inv_n;
    float sq = 0.0f;
    for (int64_t j = tid; j < N; j += kThreads) {
      const float d = xr[j] - mean;
      sq += d * d;
    }
    const float rstd = rsqrtf(block_sum(sq, part) * inv_n + eps);
    for (int64_t j = tid; j < N; j += kThreads)
      yr[j] = gelu((xr[j] - mean) * rstd * weight[j] + bias[j]);
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
  hipStream_t stream = (hipStream_t)call->stream;
  const unsigned rows = (unsigned)M;
#define KTA_LAUNCH_PER(P) \
  layernorm_gelu<P><<<rows, kThreads, 0, stream>>>(x, weight, bias, y, N, eps)
  if (N <= 1 * kThreads)
    KTA_LAUNCH_PER(1);
  else if (N <= 2 * kThreads)
    KTA_LAUNCH_PER(2);
  else if (N <= 4 * kThreads)
    KTA_LAUNCH_PER(4);
  else if (N <= 8 * kThreads)
    KTA_LAUNCH_PER(8);
  else if (N <= 16 * kThreads)
    KTA_LAUNCH_PER(16);
  else
    KTA_LAUNCH_PER(0);
#undef KTA_LAUNCH_PER
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
