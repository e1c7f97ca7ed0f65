// A faster bmm_scale_softmax, general in B, M, N and D (any size) and in the warp size: one
// kernel. PyTorch writes the scores, reads and writes them to scale them, and reads them twice
// more and writes them for the softmax; here a block of 256 threads owns R = 16 query rows of
// one batch and makes two passes over its [R, N] slice of y:
//  1. tiled GEMM: keys in tiles of TJ = 64, D in slices of DK = 32 staged in shared memory (a
//     q slice of R rows, a k slice of TJ rows padded against bank conflicts); each thread
//     computes 4 scores (one row, keys strided by 16), scales them, stores them to y and folds
//     them into its own running maximum and sum (an online softmax per thread, no barriers);
//  2. the 16 threads of a row combine their (max, sum) pairs through shared memory, then the
//     block rewrites its slice as exp(s - max) / sum (y was written by this block: the reads
//     come back from the cache).
// One write and one read-back of y besides the final write, instead of PyTorch's five passes.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int TPR = 16;            // threads per row
constexpr int R = kThreads / TPR;  // rows per block
constexpr int TJ = 64;             // keys per tile
constexpr int KPT = TJ / TPR;      // keys per thread per tile
constexpr int DK = 32;             // D per shared-memory slice

__global__ __launch_bounds__(kThreads) void bmm_scale_softmax(const float* __restrict__ q,
                                                              const float* __restrict__ k,
                                                              float* __restrict__ y, int64_t M,
                                                              int64_t N, int64_t D, float scale,
                                                              int64_t row_tiles) {
  __shared__ float qs[R][DK];
  __shared__ float ks[TJ][DK + 1];
  __shared__ float pm[R][TPR], pl[R][TPR];
  const int tid = threadIdx.x;
  const int rr = tid / TPR, lane = tid % TPR;
  const int64_t b = blockIdx.x / row_tiles;
  const int64_t i0 = (blockIdx.x % row_tiles) * R;
  const float* qb = q + (b * M + i0) * D;
  const float* kb = k + b * N * D;
  float* yb = y + (b * M + i0) * N;
  const bool row_ok = i0 + rr < M;

  float m = -INFINITY, l = 0.0f;  // this thread's running maximum and sum
  for (int64_t j0 = 0; j0 < N; j0 += TJ) {
    float acc[KPT];
    for (int c = 0; c < KPT; ++c) acc[c] = 0.0f;
    for (int64_t d0 = 0; d0 < D; d0 += DK) {
      for (int e = tid; e < R * DK; e += kThreads) {
        const int r = e / DK, dd = e % DK;
        qs[r][dd] = (i0 + r < M && d0 + dd < D) ? qb[r * D + d0 + dd] : 0.0f;
      }
      for (int e = tid; e < TJ * DK; e += kThreads) {
        const int jj = e / DK, dd = e % DK;
        ks[jj][dd] = (j0 + jj < N && d0 + dd < D) ? kb[(j0 + jj) * D + d0 + dd] : 0.0f;
      }
      __syncthreads();
      for (int dd = 0; dd < DK; ++dd) {
        const float qv = qs[rr][dd];
        for (int c = 0; c < KPT; ++c) acc[c] += qv * ks[lane + c * TPR][dd];
      }
      __syncthreads();
    }
    if (row_ok) {
      for (int c = 0; c < KPT; ++c) {
        const int64_t j = j0 + lane + c * TPR;
        if (j >= N) break;
        const float sv = acc[c] * scale;
        yb[rr * N + j] = sv;
        if (sv > m) {
          l = l * expf(m - sv) + 1.0f;  // expf(-inf) = 0 on the first key
          m = sv;
        } else {
          l += expf(sv - m);
        }
      }
    }
  }

  pm[rr][lane] = m;
  pl[rr][lane] = l;
  __syncthreads();  // also makes this block's scores in y visible to all its threads
  if (!row_ok) return;
  float mr = -INFINITY;
  for (int t = 0; t < TPR; ++t) mr = fmaxf(mr, pm[rr][t]);
  float lr = 0.0f;
  for (int t = 0; t < TPR; ++t)
    if (pl[rr][t] > 0.0f) lr += pl[rr][t] * expf(pm[rr][t] - mr);  // threads with no key: 0
  const float inv = 1.0f / lr;
  float* yr = yb + rr * N;
  for (int64_t j = lane; j < N; j += TPR) yr[j] = expf(yr[j] - mr) * inv;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 5)
    return 1;
  const float* q = (const float*)call->tensors[0].data;
  const float* k = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i,
                D = call->params[3].i;
  const float scale = (float)call->params[4].f;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t row_tiles = (M + R - 1) / R;
  bmm_scale_softmax<<<(unsigned)(B * row_tiles), kThreads, 0, stream>>>(q, k, y, M, N, D, scale,
                                                                        row_tiles);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
