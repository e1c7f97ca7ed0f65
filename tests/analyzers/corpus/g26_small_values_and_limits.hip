// General code whose small literals equal visible sizes (C is 3 and 4 in the manifest) and whose
// guards test integer limits or allocation failures, written the way sound solutions were that
// the audit flagged: register-array slots, vector widths among constants, alignment arithmetic
// masked to its modulus, INT_MAX launch bounds, a scratch allocation only past a capacity, a
// capacity that only a product of visible sizes reaches, and hip_fp16.h's pair intrinsics. (A bare
// `k < 4` or `4 * tid` stays reported: it reads exactly like a hard-coded channel count, see
// o26; a named width says which it is.)
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

constexpr int kThreads = 256;
constexpr int kVec = 8;
constexpr int kUnroll = 4;  // floats per thread and step
constexpr int64_t kChunk = kThreads * 4 * kVec;  // floats one block covers
constexpr int64_t kMaxParts = 1 << 16;
constexpr int kSmemFloats = 8192;  // shared floats of one block's tiles

__global__ void scale_rows(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  __shared__ __align__(16) float stage[kThreads];
  const int64_t base = (int64_t)blockIdx.x * kChunk;
  float v[kUnroll];
  for (int64_t at = base + kUnroll * (int64_t)threadIdx.x; at < base + kChunk && at < n;
       at += 4 * kThreads) {
    for (int k = 0; k < kUnroll; ++k) v[k] = at + k < n ? x[at + k] : 0.0f;
    stage[threadIdx.x] = v[0] + v[1] + v[2] + v[3];
    for (int k = 0; k < kUnroll && at + k < n; ++k) y[at + k] = v[k] * 0.5f;
  }
}

__device__ void copy_segment(const float* src, float* dst, int w, int tid, int nt) {
  const int misalign = (int)(((uintptr_t)src >> 2) & 3);
  const int head = (4 - misalign) & 3;
  for (int i = tid; i < head && i < w; i += nt) dst[i] = src[i];
  for (int i = head + tid; i < w; i += nt) dst[i] = src[i];
}

__global__ void copy_rows(const float* src, float* dst, int rows, int w) {
  if ((int)blockIdx.x >= rows) return;
  copy_segment(src + (int64_t)blockIdx.x * w, dst + (int64_t)blockIdx.x * w, w, threadIdx.x,
               blockDim.x);
}

__global__ void half_pairs(const __half2* x, float* y, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) {
    const __half2 p = x[i];
    y[2 * i] = __low2float(p);
    y[2 * i + 1] = __high2float(p) + __half2float(__ushort_as_half((unsigned short)0x3c00));
  }
}

int launch(const float* x, float* y, int64_t n, int64_t rows, int64_t w, hipStream_t s) {
  if (n <= 0) return 0;
  const int64_t blocks = (n + kChunk - 1) / kChunk;
  if (blocks > 0x7fffffff) return 3;
  float* parts = nullptr;
  if (blocks > kMaxParts && hipMalloc((void**)&parts, blocks * sizeof(float)) != hipSuccess)
    return 2;
  scale_rows<<<(unsigned)blocks, kThreads, 0, s>>>(x, y, n);
  copy_rows<<<(unsigned)rows, 256, 0, s>>>(x, y, (int)rows, (int)w);
  if (parts) hipFree(parts);
  return kSmemFloats > 0 ? 0 : 1;
}
