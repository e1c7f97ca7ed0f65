// A faster masked softmax, general in B, H, S, the padding and the block size (any multiple of
// warpSize up to 1024). Compared with the baseline:
//  * only the visible span [pad[b], i] of a row is read (the causal mask alone makes the upper
//    half dead, the padding more); the rest of the row is just written with zeros, and a row
//    with no visible key writes zeros and returns before any barrier;
//  * the span is read once into registers (up to 4 values per thread, 1024 with 256 threads;
//    longer spans fall back to re-reading), exp is evaluated once per element and kept there;
//  * the max and the sum are combined in two short levels of fan-in 16 through shared memory:
//    4 barriers per row instead of ~18. Shuffles would do as well on a GPU, but on kta's cpu
//    device every shuffle round switches each lane like a barrier.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

constexpr int kPer = 4;  // span values per thread kept in registers

// Every thread gets the block's reduction of v: each thread stores its value, the first
// ceil(nt / 16) threads each combine 16 of them (a column of the [16, nt / 16] view, so a warp's
// reads hit consecutive banks), and every thread combines those group values. Two barriers and
// no shuffle rounds; red and grp may be reused right after it returns, since every write of
// the next call follows a barrier that follows every read of this one.
constexpr int kFan = 16;

template <class Op>
__device__ float block_reduce(float v, float* red, float* grp, Op op) {
  const int tid = threadIdx.x, nt = blockDim.x;
  const int groups = (nt + kFan - 1) / kFan;
  red[tid] = v;
  __syncthreads();
  if (tid < groups) {
    float g = red[tid];
    for (int i = tid + groups; i < nt; i += groups) g = op(g, red[i]);
    grp[tid] = g;
  }
  __syncthreads();
  float r = grp[0];
  for (int i = 1; i < groups; ++i) r = op(r, grp[i]);
  return r;
}

struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

__global__ void masked_softmax(const float* x, const int* pad, float* y, int64_t nb, int64_t nh,
                               int64_t s, int64_t d) {
  __shared__ float red[1024];
  __shared__ float grp[1024 / kFan];
  const int64_t i = blockIdx.x, h = blockIdx.y, b = blockIdx.z;
  const int64_t lo = pad[b];
  const float scale = 1.0f / sqrtf((float)d);
  const int64_t row = (b * nh + h) * s + i;
  const float* xr = x + row * s;
  float* yr = y + row * s;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  // Zeros outside the visible span [lo, i] (everything when the span is empty).
  const int64_t zlo = lo < s ? lo : s;
  for (int64_t j = tid; j < zlo; j += nt) yr[j] = 0.0f;
  const int64_t zhi = i + 1 > zlo ? i + 1 : zlo;
  for (int64_t j = zhi + tid; j < s; j += nt) yr[j] = 0.0f;
  const int64_t len = i - lo + 1;  // uniform across the block
  if (len <= 0) return;
  const float* xs = xr + lo;
  float* ys = yr + lo;

  if (len <= (int64_t)nt * kPer) {
    float v[kPer];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      const int64_t j = tid + (int64_t)k * nt;
      v[k] = j < len ? scale * xs[j] : -INFINITY;
      m = fmaxf(m, v[k]);
    }
    m = block_reduce(m, red, grp, Max{});  // finite: len >= 1
    float l = 0.0f;
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      v[k] = expf(v[k] - m);  // 0 past the end
      l += v[k];
    }
    const float inv = 1.0f / block_reduce(l, red, grp, Add{});
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      const int64_t j = tid + (int64_t)k * nt;
      if (j < len) ys[j] = v[k] * inv;
    }
    return;
  }

  // Long spans: the same reductions, re-reading the span; y holds exp until the last pass.
  float m = -INFINITY;
  for (int64_t j = tid; j < len; j += nt) m = fmaxf(m, scale * xs[j]);
  m = block_reduce(m, red, grp, Max{});
  float l = 0.0f;
  for (int64_t j = tid; j < len; j += nt) {
    const float e = expf(scale * xs[j] - m);
    ys[j] = e;
    l += e;
  }
  const float inv = 1.0f / block_reduce(l, red, grp, Add{});
  for (int64_t j = tid; j < len; j += nt) ys[j] *= inv;
}
