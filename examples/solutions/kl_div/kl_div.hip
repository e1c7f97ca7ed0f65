// A faster kl_div, general in B and C (any size) and in the warp size: one kernel, one pass over
// both logit matrices.
//  * Rows are split into chunks so that the grid has a few hundred blocks even for a handful of
//    rows (one block per row leaves a GPU idle at B = 64). Each thread streams its strided share
//    of a chunk once, keeping online log-sum-exp states for both rows and the teacher-weighted
//    sum of (t - s), rescaled whenever the teacher's running maximum grows:
//      m_s, z_s = sum e^(s - m_s);  m_t, z_t = sum e^(t - m_t);  w = sum e^(t - m_t) (t - s).
//  * States merge with warp shuffles (any warpSize), then across warps in shared memory. A
//    block that owns whole rows (512 rows or more: at most 1024 blocks, each looping over
//    rows) adds up their KL_row = w / z_t - (m_t + log z_t) + (m_s + log z_s); a block that
//    owns a chunk keeps the chunk's state (static __device__ arrays, no allocation).
//  * The last block to finish (an atomic ticket after a fence) merges each row's chunks in
//    order, or sums the blocks' partial sums in order: deterministic, no float atomics, one
//    launch. The ticket resets itself.
// Tensors (declaration order): student f32[B, C], teacher f32[B, C], loss f32[]; params B, C.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxWarps = kThreads / 16;  // enough for any warp size >= 16
constexpr int kMaxBlocks = 1024;

struct State {
  float ms, zs, mt, zt, w;
};

__device__ State g_states[kMaxBlocks];
__device__ float g_sums[kMaxBlocks];
__device__ unsigned int g_ticket = 0;

__device__ __forceinline__ State empty_state() { return {-INFINITY, 0.0f, -INFINITY, 0.0f, 0.0f}; }

__device__ __forceinline__ State merge(const State& a, const State& b) {
  State r;
  if (a.ms == -INFINITY) {
    r.ms = b.ms, r.zs = b.zs;
  } else if (b.ms == -INFINITY) {
    r.ms = a.ms, r.zs = a.zs;
  } else {
    r.ms = fmaxf(a.ms, b.ms);
    r.zs = a.zs * expf(a.ms - r.ms) + b.zs * expf(b.ms - r.ms);
  }
  if (a.mt == -INFINITY) {
    r.mt = b.mt, r.zt = b.zt, r.w = b.w;
  } else if (b.mt == -INFINITY) {
    r.mt = a.mt, r.zt = a.zt, r.w = a.w;
  } else {
    r.mt = fmaxf(a.mt, b.mt);
    const float fa = expf(a.mt - r.mt), fb = expf(b.mt - r.mt);
    r.zt = a.zt * fa + b.zt * fb;
    r.w = a.w * fa + b.w * fb;
  }
  return r;
}

__device__ __forceinline__ State shfl_down(const State& s, int off) {
  return {__shfl_down(s.ms, off), __shfl_down(s.zs, off), __shfl_down(s.mt, off),
          __shfl_down(s.zt, off), __shfl_down(s.w, off)};
}

// Merge over the block; thread 0 gets the result. Every thread of the block must call it.
__device__ State block_merge(State v, State* warp_states) {
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const State o = shfl_down(v, off);
    v = merge(v, o);  // lanes past the warp's end read their own value back: merged, not used
  }
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) warp_states[warp] = v;
  __syncthreads();
  State r = empty_state();
  if (threadIdx.x == 0) {
    const int warps = (blockDim.x + warpSize - 1) / warpSize;
    for (int i = 0; i < warps; ++i) r = merge(r, warp_states[i]);
  }
  return r;
}

__device__ float block_sum(float v, float* warp_sums) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down(v, off);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  float total = 0.0f;
  if (threadIdx.x == 0) {
    const int warps = (blockDim.x + warpSize - 1) / warpSize;
    for (int i = 0; i < warps; ++i) total += warp_sums[i];
  }
  return total;
}

// Streams [lo, hi) of one row pair; every thread of the block gets to block_merge.
__device__ State chunk_state(const float* s, const float* t, int64_t lo, int64_t hi) {
  State st = empty_state();
  for (int64_t j = lo + threadIdx.x; j < hi; j += kThreads) {
    const float sv = s[j], tv = t[j];
    if (sv > st.ms) {
      st.zs = st.zs * expf(st.ms - sv) + 1.0f;  // e^-inf = 0 on the first element
      st.ms = sv;
    } else {
      st.zs += expf(sv - st.ms);
    }
    if (tv > st.mt) {
      const float f = expf(st.mt - tv);
      st.zt = st.zt * f + 1.0f;
      st.w = st.w * f + (tv - sv);
      st.mt = tv;
    } else {
      const float e = expf(tv - st.mt);
      st.zt += e;
      st.w += e * (tv - sv);
    }
  }
  return st;
}

__device__ __forceinline__ float row_kl(const State& m) {
  return m.w / m.zt - (m.mt + logf(m.zt)) + (m.ms + logf(m.zs));
}

// splits == 1: block b handles rows b, b + gridDim.x, ... whole and keeps the sum of their
// divergences; splits > 1 (only when B * splits < 1024): block b handles chunk b % splits of
// row b / splits and keeps its state. The last block combines either kind in a fixed order.
__global__ __launch_bounds__(kThreads) void kl_div(const float* __restrict__ student,
                                                   const float* __restrict__ teacher,
                                                   float* __restrict__ loss, int64_t B, int64_t C,
                                                   int64_t splits, int64_t chunk) {
  __shared__ State warp_states[kMaxWarps];
  __shared__ float warp_sums[kMaxWarps];
  __shared__ bool last;
  if (splits == 1) {
    float sum = 0.0f;  // thread 0's
    for (int64_t row = blockIdx.x; row < B; row += gridDim.x) {
      const State st = chunk_state(student + row * C, teacher + row * C, 0, C);
      const State m = block_merge(st, warp_states);
      if (threadIdx.x == 0) sum += row_kl(m);
      __syncthreads();  // warp_states is reused by the next row
    }
    if (threadIdx.x == 0) g_sums[blockIdx.x] = sum;
  } else {
    const int64_t row = blockIdx.x / splits, part = blockIdx.x % splits;
    const int64_t lo = part * chunk, hi = lo + chunk < C ? lo + chunk : C;
    const State st = chunk_state(student + row * C, teacher + row * C, lo, hi);
    const State m = block_merge(st, warp_states);
    if (threadIdx.x == 0) g_states[blockIdx.x] = m;
  }

  if (threadIdx.x == 0) {
    __threadfence();  // the block's result is visible before the ticket is taken
    last = atomicAdd(&g_ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;  // uniform across the block
  __threadfence();

  float acc = 0.0f;
  if (splits == 1) {
    const volatile float* sums = g_sums;
    for (int i = threadIdx.x; i < (int)gridDim.x; i += kThreads) acc += sums[i];
  } else {
    for (int64_t r = threadIdx.x; r < B; r += kThreads) {
      State m = empty_state();
      for (int64_t p = 0; p < splits; ++p) {
        const volatile State* vs = g_states + r * splits + p;
        const State q = {vs->ms, vs->zs, vs->mt, vs->zt, vs->w};
        m = merge(m, q);
      }
      acc += row_kl(m);
    }
  }
  const float total = block_sum(acc, warp_sums);
  if (threadIdx.x == 0) {
    loss[0] = total / (float)B;
    g_ticket = 0;  // ready for the next call (launches on one stream do not overlap)
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const float* student = (const float*)call->tensors[0].data;
  const float* teacher = (const float*)call->tensors[1].data;
  float* loss = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, C = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;

  // Split rows into chunks of at least 1024 elements until the grid has ~512 blocks; with
  // 512 rows or more, whole rows per block and at most kMaxBlocks blocks.
  int64_t splits = (512 + B - 1) / B;
  const int64_t max_splits = (C + 1023) / 1024;
  if (splits > max_splits) splits = max_splits;
  if (splits < 1) splits = 1;
  const int64_t chunk = (C + splits - 1) / splits;
  int64_t blocks = B * splits;  // < 1024 when splits > 1
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  kl_div<<<(unsigned)blocks, kThreads, 0, stream>>>(student, teacher, loss, B, C, splits, chunk);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
