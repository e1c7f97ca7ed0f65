// A faster instance_norm2d, general in every size and in the warp size. Each (sample, channel)
// plane of H * W values is contiguous, a row of length L = H W with one scale and shift; two
// ways to normalize it:
//  * fused (L <= 4096 and at least 256 planes, enough blocks to fill a GPU): one block of 256
//    threads per plane keeps it in registers (up to 16 values a thread): the mean, the squared
//    deviations around it (an exact two-pass variance) and the output all come from one read;
//  * split (long planes, or few of them): the plane is cut into chunks of 1024 values (one
//    float4 a thread), so N C ceil(L / 1024) blocks run. Each block computes its chunk's mean
//    and M2 (two passes over its registers) into a scratch pair; a second kernel merges the
//    plane's pairs (Chan's formula, the same order in every block, so every chunk of a plane
//    uses the same statistics) and normalizes its chunk, re-reading x (from L2 at these sizes).
// Reductions: warp shuffles (any warpSize), then the per-warp values through shared memory.
// 16-byte loads and stores when L % 4 == 0 (every plane and chunk then starts 16-byte aligned),
// single floats otherwise. The affine map is folded into one multiply-add per value,
// y = x * (w[c] rstd) + (b[c] - mean w[c] rstd), computed once per block.
// Scratch pairs live in a static __device__ array; past its size, hipMalloc (freed before
// returning).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kPack = sizeof(float4) / sizeof(float);  // floats in one 16-byte access
constexpr int kFusedPer = kPack * kPack;               // values a thread keeps (fused kernel)
constexpr int kFusedMax = kThreads * kFusedPer;         // longest plane the fused kernel takes
constexpr int kChunk = kThreads * kPack;                // values per block (split kernels)
constexpr int64_t kMaxParts = 1 << 16;

__device__ float2 g_parts[kMaxParts];  // per (plane, chunk): (mean, M2) of the chunk

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

// VEC consecutive floats at element offset e (a multiple of VEC); tail elements past `len` are
// neither read nor written.
template <int VEC>
__device__ __forceinline__ int load(const float* p, int64_t e, int64_t len, float* v) {
  if constexpr (VEC == kPack) {
    if (e >= len) return 0;
    const float4 q = *reinterpret_cast<const float4*>(p + e);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    return kPack;
  } else {
    if (e >= len) return 0;
    v[0] = p[e];
    return 1;
  }
}

template <int VEC>
__device__ __forceinline__ void store_affine(float* yp, const float* v, int64_t e, float scale,
                                             float shift) {
  if constexpr (VEC == kPack) {
    *reinterpret_cast<float4*>(yp + e) =
        make_float4(v[0] * scale + shift, v[1] * scale + shift, v[2] * scale + shift,
                    v[3] * scale + shift);
  } else {
    yp[e] = v[0] * scale + shift;
  }
}

// Fused: one block per plane, the plane in registers. Element e of the plane is handled by
// thread (e / VEC) % kThreads, in slot e / (VEC kThreads).
template <int VEC>
__global__ __launch_bounds__(kThreads) void in_fused(const float* __restrict__ x,
                                                     const float* __restrict__ weight,
                                                     const float* __restrict__ bias,
                                                     float* __restrict__ y, int64_t NC,
                                                     int64_t C, int64_t L, float eps) {
  constexpr int kSlots = kFusedPer / VEC;
  __shared__ float red[kThreads];
  const int64_t nc = blockIdx.x;
  if (nc >= NC) return;  // uniform across the block
  const float* xg = x + nc * L;
  float* yg = y + nc * L;
  float v[kSlots][VEC];
  int got[kSlots];
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kSlots; ++i) {
    const int64_t e = ((int64_t)i * kThreads + threadIdx.x) * VEC;
    got[i] = load<VEC>(xg, e, L, v[i]);
    for (int j = 0; j < got[i]; ++j) sum += v[i][j];
  }
  const float mean = block_sum(sum, red) / (float)L;
  float sq = 0.0f;
#pragma unroll
  for (int i = 0; i < kSlots; ++i)
    for (int j = 0; j < got[i]; ++j) {
      const float d = v[i][j] - mean;
      sq += d * d;
    }
  const float rstd = rsqrtf(block_sum(sq, red) / (float)L + eps);
  const int64_t c = nc % C;
  const float scale = weight[c] * rstd, shift = bias[c] - mean * scale;
#pragma unroll
  for (int i = 0; i < kSlots; ++i)
    if (got[i])
      store_affine<VEC>(yg, v[i], ((int64_t)i * kThreads + threadIdx.x) * VEC, scale, shift);
}

// Split, step 1: block b is chunk b % chunks of plane b / chunks; writes (mean, M2) of it.
template <int VEC>
__global__ __launch_bounds__(kThreads) void in_chunk_stats(const float* __restrict__ x,
                                                           float2* __restrict__ parts, int64_t L,
                                                           int64_t chunks) {
  __shared__ float red[kThreads];
  float2* out = parts ? parts : g_parts;
  const int64_t b = blockIdx.x, nc = b / chunks, ch = b % chunks;
  const int64_t start = ch * kChunk;
  const int64_t len = L - start < kChunk ? L - start : kChunk;
  const float* xc = x + nc * L + start;
  float v[kPack];
  int got = 0;
  float sum = 0.0f;
  if constexpr (VEC == kPack) {
    got = load<kPack>(xc, (int64_t)threadIdx.x * kPack, len, v);
  } else {
    for (int j = 0; j < kPack; ++j)
      got += load<1>(xc, (int64_t)j * kThreads + threadIdx.x, len, v + got);
  }
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

// Split, step 2: merge the plane's chunk statistics (each thread a strided share, then the
// block, in a fixed order), then normalize this block's chunk.
template <int VEC>
__global__ __launch_bounds__(kThreads) void in_chunk_norm(const float* __restrict__ x,
                                                          const float* __restrict__ weight,
                                                          const float* __restrict__ bias,
                                                          const float2* __restrict__ parts,
                                                          float* __restrict__ y, int64_t C,
                                                          int64_t L, int64_t chunks, float eps) {
  __shared__ float sh_n[kThreads], sh_mean[kThreads], sh_m2[kThreads];
  const float2* in = parts ? parts : g_parts;
  const int64_t b = blockIdx.x, nc = b / chunks, ch = b % chunks;

  float n = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (int64_t k = threadIdx.x; k < chunks; k += kThreads) {
    const float2 p = in[nc * chunks + k];
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
  n = 0.0f, mean = 0.0f, m2 = 0.0f;
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  for (int i = 0; i < warps; ++i) merge(n, mean, m2, sh_n[i], sh_mean[i], sh_m2[i]);
  const float rstd = rsqrtf(m2 / (float)L + eps);

  const int64_t start = ch * kChunk;
  const int64_t len = L - start < kChunk ? L - start : kChunk;
  const float* xg = x + nc * L;
  float* yg = y + nc * L;
  const int64_t c = nc % C;
  const float scale = weight[c] * rstd, shift = bias[c] - mean * scale;
  if constexpr (VEC == kPack) {
    const int64_t e = (int64_t)threadIdx.x * kPack;
    float v[kPack];
    if (load<kPack>(xg + start, e, len, v)) store_affine<kPack>(yg, v, start + e, scale, shift);
  } else {
    for (int j = 0; j < kPack; ++j) {
      const int64_t e = (int64_t)j * kThreads + threadIdx.x;
      float v[1];
      if (load<1>(xg + start, e, len, v)) store_affine<1>(yg, v, start + e, scale, shift);
    }
  }
}

template <int VEC>
static int run(const float* x, const float* weight, const float* bias, float* y, int64_t NG,
               int64_t C, int64_t L, float eps, hipStream_t stream) {
  bool freed = true;
  if (L <= kFusedMax && NG >= kThreads) {  // enough planes, each short enough for registers
    in_fused<VEC><<<(unsigned)NG, kThreads, 0, stream>>>(x, weight, bias, y, NG, C, L, eps);
  } else {
    const int64_t chunks = (L + kChunk - 1) / kChunk;
    const int64_t blocks = NG * chunks;
    const bool own = blocks > kMaxParts;  // else the static g_parts (parts == nullptr)
    float2* parts = nullptr;
    const hipError_t got = own ? hipMalloc((void**)&parts, blocks * sizeof(float2)) : hipSuccess;
    if (got != hipSuccess) return 3;
    in_chunk_stats<VEC><<<(unsigned)blocks, kThreads, 0, stream>>>(x, parts, L, chunks);
    in_chunk_norm<VEC><<<(unsigned)blocks, kThreads, 0, stream>>>(x, weight, bias, parts, y, C,
                                                                  L, chunks, eps);
    freed = !own || hipFree(parts) == hipSuccess;
  }
  return hipGetLastError() == hipSuccess && freed ? 0 : 2;
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
  const int64_t L = H * W;
  if (L % kPack == 0) return run<kPack>(x, weight, bias, y, N * C, C, L, eps, stream);
  return run<1>(x, weight, bias, y, N * C, C, L, eps, stream);
}
