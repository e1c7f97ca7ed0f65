// A faster residual_rms_norm, general in M and N (any size) and in the warp size: one kernel,
// one pass. One block of 256 threads per row; each thread adds its x and residual values, writes
// h at once and keeps it in registers (rows of up to 4096 values, PER = 1..16 per thread, chosen
// by N) while summing squares; one block reduction (warp shuffles over warpSize lanes, then the
// warp leaders through shared memory: 2 barriers) gives the RMS, and y is written from the
// registers. x and residual are read once, h and y written once: the 16 bytes per element the
// operation needs. Longer rows re-read h, each thread only the values it wrote itself.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxWarps = kThreads / 16;  // enough for any warp size >= 16

__device__ float block_sum(float v) {
  __shared__ float part[kMaxWarps];
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down(v, off);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    const int warps = (kThreads + warpSize - 1) / warpSize;
    float t = 0.0f;
    for (int w = 0; w < warps; ++w) t += part[w];
    part[0] = t;
  }
  __syncthreads();
  return part[0];
}

// PER > 0: the row in registers; PER == 0: any length, h re-read.
template <int PER>
__global__ __launch_bounds__(kThreads) void residual_rms_norm(const float* __restrict__ x,
                                                              const float* __restrict__ residual,
                                                              const float* __restrict__ weight,
                                                              float* __restrict__ h,
                                                              float* __restrict__ y, int64_t N,
                                                              float eps) {
  const int64_t base = (int64_t)blockIdx.x * N;
  const int tid = threadIdx.x;
  float sq = 0.0f;
  if (PER > 0) {
    float v[PER > 0 ? PER : 1];
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      const int64_t j = tid + (int64_t)i * kThreads;
      v[i] = 0.0f;
      if (j < N) {
        v[i] = x[base + j] + residual[base + j];
        h[base + j] = v[i];
      }
      sq += v[i] * v[i];
    }
    const float rstd = rsqrtf(block_sum(sq) / (float)N + eps);
#pragma unroll
    for (int i = 0; i < PER; ++i) {
      const int64_t j = tid + (int64_t)i * kThreads;
      if (j < N) y[base + j] = v[i] * rstd * weight[j];
    }
  } else {
    for (int64_t j = tid; j < N; j += kThreads) {
      const float v = x[base + j] + residual[base + j];
      h[base + j] = v;
      sq += v * v;
    }
    const float rstd = rsqrtf(block_sum(sq) / (float)N + eps);
    for (int64_t j = tid; j < N; j += kThreads) y[base + j] = h[base + j] * rstd * weight[j];
  }
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
  const unsigned rows = (unsigned)M;
#define KTA_LAUNCH_PER(P) \
  residual_rms_norm<P><<<rows, kThreads, 0, stream>>>(x, residual, weight, h, y, N, eps)
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
