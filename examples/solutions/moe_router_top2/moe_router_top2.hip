// A faster moe_router_top2, general in T, D and E >= 2 (any size, no alignment assumed) and in
// the warp size: one kernel, one block of 256 threads per 32 tokens, the logits never leave
// registers. Thread (t, lane) of a block (8 lanes per token) computes 8 logits of token t per
// 64-expert chunk, experts e = chunk + lane + 8 j, as a small tiled GEMM: K in 32-wide slices,
// the 32 tokens' slice of x and the chunk's slice of wg staged in shared memory (zero-filled past
// the edges), so each wg value loaded is used by 32 tokens. Each thread keeps a running top-2
// (logit, index) over its experts; the 8 lanes of a token merge theirs through shared memory.
// The renormalized weights p1 / (p1 + p2) and p2 / (p1 + p2) equal a softmax over the two
// largest logits, 1 / (1 + e) and e / (1 + e) with e = exp(l2 - l1): the softmax over all E
// experts (its max and sum) is never needed, and softmax order is logit order. Equal logits go
// to the smaller index (the inputs make exact ties impossible anyway).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int TT = 32;                // tokens per block
constexpr int LANES = kThreads / TT;  // threads per token: 8
constexpr int EC = 64;                // experts per chunk
constexpr int PER = EC / LANES;       // logits per thread per chunk: 8
constexpr int BK = 32;                // K slice

struct Top2 {
  float v1, v2;
  int64_t i1, i2;
};

__device__ inline void push(Top2& t, float v, int64_t e) {
  if (v > t.v1 || (v == t.v1 && e < t.i1)) {
    t.v2 = t.v1, t.i2 = t.i1;
    t.v1 = v, t.i1 = e;
  } else if (v > t.v2 || (v == t.v2 && e < t.i2)) {
    t.v2 = v, t.i2 = e;
  }
}

__global__ __launch_bounds__(kThreads) void router_top2(const float* __restrict__ x,
                                                        const float* __restrict__ wg,
                                                        float* __restrict__ weights,
                                                        int64_t* __restrict__ experts, int64_t T,
                                                        int64_t D, int64_t E) {
  __shared__ float xs[TT][BK + 1];
  __shared__ float ws[BK][EC + 1];
  __shared__ Top2 best[TT][LANES];
  const int tid = threadIdx.x;
  const int tt = tid / LANES, lane = tid % LANES;
  const int64_t t0 = (int64_t)blockIdx.x * TT;

  Top2 top = {-INFINITY, -INFINITY, INT64_MAX, INT64_MAX};
  for (int64_t e0 = 0; e0 < E; e0 += EC) {
    float acc[PER];
#pragma unroll
    for (int j = 0; j < PER; ++j) acc[j] = 0.0f;
    for (int64_t k0 = 0; k0 < D; k0 += BK) {
      for (int l = tid; l < TT * BK; l += kThreads) {  // consecutive threads, consecutive k
        const int row = l / BK, kk = l % BK;
        const int64_t t = t0 + row, k = k0 + kk;
        xs[row][kk] = (t < T && k < D) ? x[t * D + k] : 0.0f;
      }
      for (int l = tid; l < EC * BK; l += kThreads) {
        const int col = l / BK, kk = l % BK;
        const int64_t e = e0 + col, k = k0 + kk;
        ws[kk][col] = (e < E && k < D) ? wg[e * D + k] : 0.0f;
      }
      __syncthreads();
#pragma unroll 8
      for (int kk = 0; kk < BK; ++kk) {
        const float xv = xs[tt][kk];
#pragma unroll
        for (int j = 0; j < PER; ++j) acc[j] += xv * ws[kk][lane + j * LANES];
      }
      __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < PER; ++j) {
      const int64_t e = e0 + lane + j * LANES;
      if (e < E) push(top, acc[j], e);
    }
  }

  best[tt][lane] = top;
  __syncthreads();
  const int64_t t = t0 + tid;
  if (tid < TT && t < T) {
    Top2 r = best[tid][0];
    for (int l = 1; l < LANES; ++l) {
      push(r, best[tid][l].v1, best[tid][l].i1);
      push(r, best[tid][l].v2, best[tid][l].i2);
    }
    const float e = expf(r.v2 - r.v1);  // in (0, 1]
    const float inv = 1.0f / (1.0f + e);
    weights[2 * t] = inv;
    weights[2 * t + 1] = e * inv;
    experts[2 * t] = r.i1;
    experts[2 * t + 1] = r.i2;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* wg = (const float*)call->tensors[1].data;
  float* weights = (float*)call->tensors[2].data;
  int64_t* experts = (int64_t*)call->tensors[3].data;
  const int64_t T = call->params[0].i, D = call->params[1].i, E = call->params[2].i;
  if (E < 2) return 4;  // top-2 needs two experts
  router_top2<<<(unsigned)((T + TT - 1) / TT), kThreads, 0, (hipStream_t)call->stream>>>(
      x, wg, weights, experts, T, D, E);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
