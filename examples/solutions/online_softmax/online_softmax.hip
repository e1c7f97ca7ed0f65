// A faster online softmax (launcher mode), general in M and N. Compared with the baseline:
//  * each row is split into chunks of 8192 values and every chunk gets its own block of 256
//    threads (M * ceil(N / 8192) blocks in all), so a few long rows fill the whole GPU instead of
//    a handful of multiprocessors;
//  * kernel 1 (chunk_stats) reads its chunk once into registers (float4 loads when N % 4 == 0,
//    coalesced scalar loads otherwise), takes each thread's maximum first and then sums
//    exp(x - max) (one exp per element, no rescaling in the loop); the (max, sum) pairs are
//    merged with the online-softmax rule by warp shuffles and one barrier per block;
//  * kernel 2 (normalize) lets every block merge its row's few hundred partial pairs (a strided
//    slice per thread, shuffles, one barrier) and then writes y = exp(x - max) / sum for its
//    chunk with float4 stores: no third kernel for the row statistics.
// The partial pairs live in a static __device__ array (no allocation, so the launcher can be
// captured in a graph; the kernels take a null pointer to mean it); more chunks than it holds
// fall back to hipMalloc.
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params: M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kVec = 8;                          // float4 per thread
constexpr int64_t kChunk = kThreads * 4 * kVec;  // 8192 values per block
constexpr int64_t kMaxParts = 1 << 16;

__device__ float2 g_parts[kMaxParts];  // per (row, chunk): (maximum, sum of exp(x - maximum))

// Merge the partial pair (m2, s2) into (m, s); an empty pair has m = -inf, s = 0.
__device__ void merge(float& m, float& s, float m2, float s2) {
  const float mm = fmaxf(m, m2);
  if (mm == -INFINITY) return;  // both empty
  s = s * expf(m - mm) + s2 * expf(m2 - mm);
  m = mm;
}

// Merge the pairs of a block; every thread gets the result. pm, ps: one slot per warp.
__device__ void block_merge(float& m, float& s, float* pm, float* ps) {
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const float m2 = __shfl_xor(m, off), s2 = __shfl_xor(s, off);
    merge(m, s, m2, s2);
  }
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  if (lane == 0) {
    pm[warp] = m;
    ps[warp] = s;
  }
  __syncthreads();
  m = pm[0];
  s = ps[0];
  for (int w = 1; w < nwarps; ++w) merge(m, s, pm[w], ps[w]);
}

__global__ void chunk_stats(const float* x, float2* parts, int64_t n, int64_t chunks) {
  if (parts == nullptr) parts = g_parts;
  __shared__ float pm[32], ps[32];
  const int64_t row = blockIdx.x / chunks, c = blockIdx.x % chunks;
  const int64_t base = c * kChunk;
  const int64_t len = n - base < kChunk ? n - base : kChunk;
  const float* xc = x + row * n + base;
  const int tid = threadIdx.x;

  float m = -INFINITY, s = 0.0f;
  if (n % 4 == 0) {
    const float4* x4 = reinterpret_cast<const float4*>(xc);
    const int64_t len4 = len / 4;
    float4 v[kVec];
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
      const int64_t k = tid + (int64_t)i * kThreads;
      if (k < len4) {
        v[i] = x4[k];
        m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
      }
    }
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
      const int64_t k = tid + (int64_t)i * kThreads;
      if (k < len4)
        s += (expf(v[i].x - m) + expf(v[i].y - m)) + (expf(v[i].z - m) + expf(v[i].w - m));
    }
  } else {
    float v[4 * kVec];
#pragma unroll
    for (int i = 0; i < 4 * kVec; ++i) {
      const int64_t k = tid + (int64_t)i * kThreads;
      v[i] = k < len ? xc[k] : -INFINITY;
      m = fmaxf(m, v[i]);
    }
    if (m != -INFINITY) {
#pragma unroll
      for (int i = 0; i < 4 * kVec; ++i) s += expf(v[i] - m);  // exp(-inf) = 0 past the end
    }
  }
  block_merge(m, s, pm, ps);
  if (tid == 0) parts[blockIdx.x] = make_float2(m, s);
}

__global__ void normalize(const float* x, float* y, const float2* parts, int64_t n,
                          int64_t chunks) {
  if (parts == nullptr) parts = g_parts;
  __shared__ float pm[32], ps[32];
  const int64_t row = blockIdx.x / chunks, c = blockIdx.x % chunks;
  const int tid = threadIdx.x;

  float m = -INFINITY, s = 0.0f;
  const float2* pr = parts + row * chunks;
  for (int64_t p = tid; p < chunks; p += kThreads) {
    const float2 q = pr[p];
    merge(m, s, q.x, q.y);
  }
  block_merge(m, s, pm, ps);
  const float inv = 1.0f / s;

  const int64_t base = c * kChunk;
  const int64_t len = n - base < kChunk ? n - base : kChunk;
  const float* xc = x + row * n + base;
  float* yc = y + row * n + base;
  if (n % 4 == 0) {
    const float4* x4 = reinterpret_cast<const float4*>(xc);
    float4* y4 = reinterpret_cast<float4*>(yc);
    const int64_t len4 = len / 4;
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
      const int64_t k = tid + (int64_t)i * kThreads;
      if (k < len4) {
        const float4 v = x4[k];
        y4[k] = make_float4(expf(v.x - m) * inv, expf(v.y - m) * inv, expf(v.z - m) * inv,
                            expf(v.w - m) * inv);
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < 4 * kVec; ++i) {
      const int64_t k = tid + (int64_t)i * kThreads;
      if (k < len) yc[k] = expf(xc[k] - m) * inv;
    }
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t m = call->params[0].i, n = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (m <= 0 || n <= 0) return 0;

  const int64_t chunks = (n + kChunk - 1) / kChunk;
  const int64_t blocks = m * chunks;
  if (blocks > 0x7fffffff) return 1;
  float2* parts = nullptr;  // g_parts
  if (blocks > kMaxParts && hipMalloc((void**)&parts, blocks * sizeof(float2)) != hipSuccess)
    return 2;
  chunk_stats<<<(unsigned)blocks, kThreads, 0, stream>>>(x, parts, n, chunks);
  normalize<<<(unsigned)blocks, kThreads, 0, stream>>>(x, y, parts, n, chunks);
  const bool ok = hipGetLastError() == hipSuccess;
  const bool freed = blocks <= kMaxParts || hipFree(parts) == hipSuccess;
  return ok && freed ? 0 : 3;
}
