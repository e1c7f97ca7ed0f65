// A faster scale_mask_softmax, general in B, M and N (any size) and in the warp size. One block
// of 256 threads per row, one pass over the row: each thread loads its z = x * scale + mask
// values once, keeps them in registers (rows of up to 2048 values, PER = 1..8 per thread,
// chosen by N) and folds them into a local (max, sum of exp) pair; a single block reduction
// merges the pairs (warp shuffles over warpSize lanes, then the warp leaders through shared
// memory: 2 barriers), and each value is rescaled and written once, with one exp per element.
// Longer rows take an online pass (running max and rescaled sum) and a second read of x for the
// output. The mask row (shared by the B batch entries) comes from cache after the first.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxWarps = kThreads / 16;  // enough for any warp size >= 16

// Merges (m2, s2) into (m, s): the sums of exp(z - m) of two sets of values.
__device__ inline void merge(float& m, float& s, float m2, float s2) {
  const float mn = fmaxf(m, m2);
  if (mn == -INFINITY) return;  // both sets empty
  s = s * expf(m - mn) + s2 * expf(m2 - mn);
  m = mn;
}

// Block-wide merge of every thread's (m, s); every thread gets the row's pair.
__device__ void block_merge(float& m, float& s) {
  __shared__ float sm[kMaxWarps], ss[kMaxWarps];
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    const float m2 = __shfl_down(m, off), s2 = __shfl_down(s, off);
    merge(m, s, m2, s2);
  }
  if (lane == 0) sm[warp] = m, ss[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    const int warps = (kThreads + warpSize - 1) / warpSize;
    float mt = sm[0], st = ss[0];
    for (int w = 1; w < warps; ++w) merge(mt, st, sm[w], ss[w]);
    sm[0] = mt, ss[0] = st;
  }
  __syncthreads();
  m = sm[0], s = ss[0];
}

template <int PER>
__global__ __launch_bounds__(kThreads) void softmax_regs(const float* __restrict__ x,
                                                         const float* __restrict__ mask,
                                                         float* __restrict__ y, int64_t M,
                                                         int64_t N, float scale) {
  const int64_t row = blockIdx.x;
  const float* xr = x + row * N;
  const float* mr = mask + (row % M) * N;
  float* yr = y + row * N;
  const int tid = threadIdx.x;
  float e[PER];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int64_t j = tid + (int64_t)i * kThreads;
    e[i] = j < N ? xr[j] * scale + mr[j] : -INFINITY;
    m = fmaxf(m, e[i]);
  }
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    e[i] = m == -INFINITY ? 0.0f : expf(e[i] - m);  // exp(-inf) = 0 past the row's end
    s += e[i];
  }
  const float ml = m;
  block_merge(m, s);
  const float f = (ml == -INFINITY ? 0.0f : expf(ml - m)) / s;
#pragma unroll
  for (int i = 0; i < PER; ++i) {
    const int64_t j = tid + (int64_t)i * kThreads;
    if (j < N) yr[j] = e[i] * f;
  }
}

__global__ __launch_bounds__(kThreads) void softmax_online(const float* __restrict__ x,
                                                           const float* __restrict__ mask,
                                                           float* __restrict__ y, int64_t M,
                                                           int64_t N, float scale) {
  const int64_t row = blockIdx.x;
  const float* xr = x + row * N;
  const float* mr = mask + (row % M) * N;
  float* yr = y + row * N;
  float m = -INFINITY, s = 0.0f;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) {
    const float z = xr[j] * scale + mr[j];
    if (z > m) {
      s = s * expf(m - z) + 1.0f;
      m = z;
    } else {
      s += expf(z - m);
    }
  }
  block_merge(m, s);
  const float inv = 1.0f / s;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) yr[j] = expf(xr[j] * scale + mr[j] - m) * inv;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* mask = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i;
  const float scale = (float)call->params[3].f;
  hipStream_t stream = (hipStream_t)call->stream;
  const unsigned rows = (unsigned)(B * M);
  // Rows in registers at 1, 2, 4 or 8 values per thread (the literals are not the batch size).
  if (N <= 1 * kThreads)
    softmax_regs<1><<<rows, kThreads, 0, stream>>>(x, mask, y, M, N, scale);
  else if (N <= 2 * kThreads)
    softmax_regs<2><<<rows, kThreads, 0, stream>>>(x, mask, y, M, N, scale);
  else if (N <= 4 * kThreads)  // kta-audit: allow(kta-shape-literal): values per thread, not B
    softmax_regs<4><<<rows, kThreads, 0, stream>>>(x, mask, y, M, N, scale);
  else if (N <= 8 * kThreads)  // kta-audit: allow(kta-shape-literal): values per thread, not B
    softmax_regs<8><<<rows, kThreads, 0, stream>>>(x, mask, y, M, N, scale);
  else
    softmax_online<<<rows, kThreads, 0, stream>>>(x, mask, y, M, N, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
