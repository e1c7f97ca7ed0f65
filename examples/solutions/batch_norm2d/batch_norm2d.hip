// A faster batch_norm2d, general in every size and in the warp size. The starter runs one block
// per channel (tens of blocks: most of a GPU idles) and walks each channel three times with a
// division per element. Here three short launches:
//  1. statistics: each channel's N * H * W values, taken in (n, h*w) order, are cut into chunks
//     of 1024 (one float4 a thread), and C * ceil(N H W / 1024) blocks each compute their
//     chunk's mean and M2 from registers (an exact two-pass over the chunk) into a scratch pair;
//  2. finalize: a block per channel merges its chunks' pairs (Chan's formula: each thread a
//     strided share, then warp shuffles and the per-warp values, in a fixed order) and stores
//     the folded affine map, scale = w rstd and shift = b - mean w rstd;
//  3. normalize: one multiply-add per value over the whole tensor, a float4 per thread.
// When H W % 4 == 0 four consecutive values never straddle a plane and every plane starts
// 16-byte aligned, so loads and stores are float4; otherwise single floats. x is read twice
// (the second time mostly from L2 at these sizes) and y written once.
// Scratch (the pairs, then the per-channel maps) is a static __device__ array; past its size,
// hipMalloc (freed before returning).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kPack = sizeof(float4) / sizeof(float);  // floats in one 16-byte access
constexpr int kChunk = kThreads * kPack;                // channel values per statistics block
constexpr int64_t kMaxScratch = 1 << 16;

__device__ float2 g_scratch[kMaxScratch];

// The block's sum, returned to every thread. `red` holds one float per warp.
__device__ float block_sum(float v, float* red) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down(v, off);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) red[warp] = v;
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  float total = 0.0f;
  for (int i = 0; i < warps; ++i) total += red[i];
  __syncthreads();  // red is reused by the next call
  return total;
}

// Chan's merge of (count, mean, M2) statistics: b into a.
__device__ __forceinline__ void merge(float& n, float& mean, float& m2, float nb, float meanb,
                                      float m2b) {
  if (nb == 0.0f) return;
  const float nn = n + nb, d = meanb - mean;
  mean += d * (nb / nn);
  m2 += m2b + d * d * (n * nb / nn);
  n = nn;
}

// 1. Block b is chunk b % chunks of channel b / chunks. Channel value i (0 <= i < N HW) is
// x[n, c, j] with n = i / HW, j = i % HW; VEC values starting at a multiple of VEC share n.
template <int VEC>
__global__ __launch_bounds__(kThreads) void bn_stats(const float* __restrict__ x,
                                                     float2* __restrict__ parts, int64_t C,
                                                     int64_t HW, int64_t L, int64_t chunks) {
  __shared__ float red[kThreads];
  float2* out = parts ? parts : g_scratch;
  const int64_t b = blockIdx.x, c = b / chunks, start = (b % chunks) * kChunk;
  const int64_t len = L - start < kChunk ? L - start : kChunk;
  float v[kPack];
  int got = 0;
  if constexpr (VEC == kPack) {
    const int64_t e = (int64_t)threadIdx.x * kPack;
    if (e < len) {
      const int64_t i = start + e, n = i / HW;
      const float4 q = *reinterpret_cast<const float4*>(x + (n * C + c) * HW + (i - n * HW));
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      got = kPack;
    }
  } else {
    for (int j = 0; j < kPack; ++j) {
      const int64_t e = (int64_t)j * kThreads + threadIdx.x;
      if (e < len) {
        const int64_t i = start + e, n = i / HW;
        v[got++] = x[(n * C + c) * HW + (i - n * HW)];
      }
    }
  }
  float sum = 0.0f;
  for (int j = 0; j < got; ++j) sum += v[j];
  const float mean = block_sum(sum, red) / (float)len;
  float sq = 0.0f;
  for (int j = 0; j < got; ++j) {
    const float d = v[j] - mean;
    sq += d * d;
  }
  const float m2 = block_sum(sq, red);
  if (threadIdx.x == 0) out[b] = make_float2(mean, m2);
}

// 2. Block c merges channel c's chunks and stores (scale, shift) at maps[c].
__global__ __launch_bounds__(kThreads) void bn_finalize(const float2* __restrict__ parts,
                                                        float2* __restrict__ maps,
                                                        const float* __restrict__ weight,
                                                        const float* __restrict__ bias,
                                                        int64_t L, int64_t chunks, float eps) {
  __shared__ float sh_n[kThreads], sh_mean[kThreads], sh_m2[kThreads];
  const float2* in = parts ? parts : g_scratch;
  float2* out = maps ? maps : g_scratch + gridDim.x * chunks;
  const int64_t c = blockIdx.x;
  float n = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (int64_t k = threadIdx.x; k < chunks; k += kThreads) {
    const float2 p = in[c * chunks + k];
    const int64_t len = L - k * kChunk < kChunk ? L - k * kChunk : kChunk;
    merge(n, mean, m2, (float)len, p.x, p.y);
  }
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const float nb = __shfl_down(n, off), mb = __shfl_down(mean, off), qb = __shfl_down(m2, off);
    if ((threadIdx.x % warpSize) + off < warpSize) merge(n, mean, m2, nb, mb, qb);
  }
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) sh_n[warp] = n, sh_mean[warp] = mean, sh_m2[warp] = m2;
  __syncthreads();
  if (threadIdx.x == 0) {
    n = 0.0f, mean = 0.0f, m2 = 0.0f;
    const int warps = (blockDim.x + warpSize - 1) / warpSize;
    for (int i = 0; i < warps; ++i) merge(n, mean, m2, sh_n[i], sh_mean[i], sh_m2[i]);
    const float scale = weight[c] * rsqrtf(m2 / (float)L + eps);
    out[c] = make_float2(scale, bias[c] - mean * scale);
  }
}

// 3. y = x * scale[c] + shift[c]; thread t handles values t VEC .. t VEC + VEC - 1 of the
// flat tensor (one plane each, since HW % VEC == 0).
template <int VEC>
__global__ __launch_bounds__(kThreads) void bn_apply(const float* __restrict__ x,
                                                     const float2* __restrict__ maps,
                                                     float* __restrict__ y, int64_t C,
                                                     int64_t HW, int64_t total, int64_t map_at) {
  const float2* in = maps ? maps : g_scratch + map_at;
  const int64_t e = ((int64_t)blockIdx.x * kThreads + threadIdx.x) * VEC;
  if (e >= total) return;
  const float2 m = in[(e / HW) % C];
  if constexpr (VEC == kPack) {
    const float4 q = *reinterpret_cast<const float4*>(x + e);
    *reinterpret_cast<float4*>(y + e) =
        make_float4(q.x * m.x + m.y, q.y * m.x + m.y, q.z * m.x + m.y, q.w * m.x + m.y);
  } else {
    y[e] = x[e] * m.x + m.y;
  }
}

template <int VEC>
static int run(const float* x, const float* weight, const float* bias, float* y, int64_t N,
               int64_t C, int64_t HW, float eps, hipStream_t stream) {
  const int64_t L = N * HW, total = N * C * HW;
  const int64_t chunks = (L + kChunk - 1) / kChunk;
  const int64_t pairs = C * chunks;
  const bool own = pairs + C > kMaxScratch;  // else the static g_scratch (null pointers)
  float2* parts = nullptr;
  const hipError_t got =
      own ? hipMalloc((void**)&parts, (pairs + C) * sizeof(float2)) : hipSuccess;
  if (got != hipSuccess) return 3;
  float2* maps = own ? parts + pairs : nullptr;
  bn_stats<VEC><<<(unsigned)pairs, kThreads, 0, stream>>>(x, parts, C, HW, L, chunks);
  bn_finalize<<<(unsigned)C, kThreads, 0, stream>>>(parts, maps, weight, bias, L, chunks, eps);
  const int64_t threads = (total + VEC - 1) / VEC;
  bn_apply<VEC><<<(unsigned)((threads + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      x, maps, y, C, HW, total, pairs);
  const bool ok = hipGetLastError() == hipSuccess;
  const bool freed = !own || hipFree(parts) == hipSuccess;
  return ok && freed ? 0 : 2;
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
  hipStream_t stream = (hipStream_t)call->stream;
  if (N <= 0 || C <= 0 || H <= 0 || W <= 0) return 0;
  const int64_t HW = H * W;
  if (HW % kPack == 0) return run<kPack>(x, weight, bias, y, N, C, HW, eps, stream);
  return run<1>(x, weight, bias, y, N, C, HW, eps, stream);
}
