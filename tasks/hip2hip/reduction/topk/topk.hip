// Baseline for the topk task (launcher mode): one block per row, K rounds of a block argmax.
// Round j finds the largest element that comes after pick j - 1 in the order (value descending,
// index ascending): each thread scans a strided slice of the row for its best such element,
// then a shared-memory tree (a __syncthreads per level) picks the block's best, which thread 0
// writes out. The row is read K times (from cache after the first) and each round pays a full
// tree of barriers. The block is as wide as the row up to 256 threads (a power of two, at least
// 32), so rows of 64 elements do not leave 192 threads idle.
// Tensors (declaration order): x f32[M, N], values f32[M, K], indices i64[M, K];
// params: M, N, K.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kMaxThreads = 256;

// true when (av, ai) comes before (bv, bi) in the output order; an index of -1 is "none".
__device__ bool before(float av, int64_t ai, float bv, int64_t bi) {
  if (ai < 0) return false;
  if (bi < 0) return true;
  return av > bv || (av == bv && ai < bi);
}

__global__ void topk_rows(const float* x, float* values, int64_t* indices, int64_t n,
                          int64_t k) {
  __shared__ float red_v[kMaxThreads];
  __shared__ int64_t red_i[kMaxThreads];
  const int64_t row = blockIdx.x;
  const float* xr = x + row * n;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float pv = INFINITY;  // the previous pick
  int64_t pi = -1;
  for (int64_t j = 0; j < k; ++j) {
    float bv = 0.0f;
    int64_t bi = -1;
    for (int64_t c = tid; c < n; c += nt) {
      const float v = xr[c];
      const bool after_prev = v < pv || (v == pv && c > pi);
      if (after_prev && (bi < 0 || v > bv)) {  // increasing c: an equal value keeps bi
        bv = v;
        bi = c;
      }
    }
    red_v[tid] = bv;
    red_i[tid] = bi;
    __syncthreads();
    for (int s = nt / 2; s > 0; s >>= 1) {
      if (tid < s && before(red_v[tid + s], red_i[tid + s], red_v[tid], red_i[tid])) {
        red_v[tid] = red_v[tid + s];
        red_i[tid] = red_i[tid + s];
      }
      __syncthreads();
    }
    pv = red_v[0];
    pi = red_i[0];
    if (tid == 0) {
      values[row * k + j] = pv;
      indices[row * k + j] = pi;
    }
    __syncthreads();  // red_* is rewritten by the next round
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* values = (float*)call->tensors[1].data;
  int64_t* indices = (int64_t*)call->tensors[2].data;
  const int64_t m = call->params[0].i, n = call->params[1].i, k = call->params[2].i;
  if (k > n) return 4;
  int threads = 32;
  while (threads < kMaxThreads && threads < n) threads *= 2;
  topk_rows<<<(unsigned)m, threads, 0, (hipStream_t)call->stream>>>(x, values, indices, n, k);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
