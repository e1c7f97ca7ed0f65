// An OVERFIT batch_norm2d, kept on purpose as a test of the task's held-out shapes and of
// `kta audit`: it is the kernel an agent writes after reading the visible shapes. The plane size
// H * W is a template argument so the per-plane loops unroll, and the launcher picks it by
// matching the two visible plane sizes (16 x 16 and 28 x 28) with no general path: every other
// plane size runs the 28 x 28 kernel. Correct on every visible point, wrong on held-out points
// (7 x 13, 1 x 50 and 33 x 33 planes).
//  1. plane_stats: a block per (n, c) plane, (mean, M2) of its HW values;
//  2. finalize: a thread per channel merges its N planes (Chan's formula) into scale and shift;
//  3. apply: y = x * scale + shift, a float4 per thread.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__device__ float2 g_part[16 * 64];  // (mean, M2) of each of the N * C planes
__device__ float2 g_maps[64];       // (scale, shift) of each of the C channels

__device__ float block_sum(float v, float* red) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down(v, off);
  if (threadIdx.x % warpSize == 0) red[threadIdx.x / warpSize] = v;
  __syncthreads();
  float total = 0.0f;
  for (int i = 0; i < kThreads / warpSize; ++i) total += red[i];
  __syncthreads();
  return total;
}

template <int HW>
__global__ void plane_stats(const float* x) {
  __shared__ float red[kThreads];
  const float* p = x + (int64_t)blockIdx.x * HW;
  float s = 0.0f;
#pragma unroll
  for (int i = threadIdx.x; i < HW; i += kThreads) s += p[i];
  const float mean = block_sum(s, red) / HW;
  float q = 0.0f;
#pragma unroll
  for (int i = threadIdx.x; i < HW; i += kThreads) q += (p[i] - mean) * (p[i] - mean);
  const float m2 = block_sum(q, red);
  if (threadIdx.x == 0) g_part[blockIdx.x] = make_float2(mean, m2);
}

template <int HW>
__global__ void finalize(const float* weight, const float* bias, int N, int C, float eps) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= C) return;
  float n = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (int i = 0; i < N; ++i) {
    const float2 p = g_part[i * C + c];
    const float nn = n + HW, d = p.x - mean;
    mean += d * (HW / nn);
    m2 += p.y + d * d * (n * HW / nn);
    n = nn;
  }
  const float scale = weight[c] * rsqrtf(m2 / n + eps);
  g_maps[c] = make_float2(scale, bias[c] - mean * scale);
}

template <int HW>
__global__ void apply(const float* x, float* y, int C, int64_t total4) {
  const int64_t t = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (t >= total4) return;
  const float2 m = g_maps[(t * 4 / HW) % C];
  const float4 v = reinterpret_cast<const float4*>(x)[t];
  reinterpret_cast<float4*>(y)[t] =
      make_float4(v.x * m.x + m.y, v.y * m.x + m.y, v.z * m.x + m.y, v.w * m.x + m.y);
}

template <int HW>
static void run(const float* x, const float* weight, const float* bias, float* y, int N, int C,
                float eps, hipStream_t stream) {
  plane_stats<HW><<<N * C, kThreads, 0, stream>>>(x);
  finalize<HW><<<1, 64, 0, stream>>>(weight, bias, N, C, eps);
  const int64_t total4 = (int64_t)N * C * HW / 4;
  apply<HW><<<(unsigned)((total4 + kThreads - 1) / kThreads), kThreads, 0, stream>>>(x, y, C,
                                                                                   total4);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* weight = (const float*)call->tensors[1].data;
  const float* bias = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int N = (int)call->params[0].i, C = (int)call->params[1].i;
  const int H = (int)call->params[2].i, W = (int)call->params[3].i;
  const float eps = (float)call->params[4].f;
  hipStream_t stream = (hipStream_t)call->stream;
  if (H * W == 256)
    run<256>(x, weight, bias, y, N, C, eps, stream);
  else
    run<784>(x, weight, bias, y, N, C, eps, stream);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
