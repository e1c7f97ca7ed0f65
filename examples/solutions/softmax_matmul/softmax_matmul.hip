// A faster softmax_matmul, general in B, M, N and D (any size) and in the warp size: one kernel
// with an online softmax fused into the P V product, so the [B, M, N] probabilities never go to
// memory (PyTorch writes them and reads them back for the GEMM) and the scores are read once.
// A block of 256 threads owns R = 16 query rows of one batch and a chunk of DC output columns;
// each row has TPR = 16 threads, each owning NC = DC / 16 columns (strided by 16, so that the
// reads of a tile row of v are contiguous). It walks the keys in tiles of TJ = 32:
//  * the R x TJ scores and the TJ x DC slice of v go to shared memory (zero-filled past the
//    edges; scores past N are -inf, so they weigh 0);
//  * per row: the tile's maximum m' = max(m, max_j s), the correction exp(m - m'), and the
//    weights p_j = exp(s_j - m') (computed once per element, shared by the row's threads);
//  * l = l exp(m - m') + sum_j p_j and acc = acc exp(m - m') + sum_j p_j v[j, :].
// At the end y = acc / l. Each slice of v is used by 16 rows instead of one. D > DC (wide rows)
// takes several column chunks (grid y), each redoing the cheap softmax part. DC is 128, 64 or 32
// by D, so that narrow heads do not leave most threads idle.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int TPR = 16;            // threads per row
constexpr int R = kThreads / TPR;  // rows per block
constexpr int TJ = 32;             // keys per tile

template <int NC>
__global__ __launch_bounds__(kThreads) void softmax_matmul(const float* __restrict__ s,
                                                           const float* __restrict__ v,
                                                           float* __restrict__ y, int64_t M,
                                                           int64_t N, int64_t D,
                                                           int64_t row_tiles) {
  constexpr int DC = TPR * NC;
  __shared__ float ss[R][TJ + 1];  // scores, then weights
  __shared__ float vs[TJ][DC];
  __shared__ float mrow[R];  // each row's running maximum
  __shared__ float corr[R];  // each row's rescaling of this tile, exp(m_old - m_new)
  const int tid = threadIdx.x;
  const int rr = tid / TPR, lane = tid % TPR;
  const int64_t b = blockIdx.x / row_tiles;
  const int64_t i0 = (blockIdx.x % row_tiles) * R;
  const int64_t d0 = (int64_t)blockIdx.y * DC;
  const float* sb = s + (b * M + i0) * N;
  const float* vb = v + b * N * D;

  if (tid < R) mrow[tid] = -INFINITY;
  float l = 0.0f;
  float acc[NC];
  for (int c = 0; c < NC; ++c) acc[c] = 0.0f;

  for (int64_t j0 = 0; j0 < N; j0 += TJ) {
    // Scores: keys past N are -inf (weight 0); rows past M read 0 (finite, never stored).
    for (int e = tid; e < R * TJ; e += kThreads) {
      const int r = e / TJ, jj = e % TJ;
      float val = -INFINITY;
      if (j0 + jj < N) val = (i0 + r < M) ? sb[r * N + j0 + jj] : 0.0f;
      ss[r][jj] = val;
    }
    for (int e = tid; e < TJ * DC; e += kThreads) {
      const int jj = e / DC, dd = e % DC;
      vs[jj][dd] = (j0 + jj < N && d0 + dd < D) ? vb[(j0 + jj) * D + d0 + dd] : 0.0f;
    }
    __syncthreads();
    if (tid < R) {  // key j0 < N is in every tile, so the new maximum is finite
      float t = ss[tid][0];
      for (int jj = 1; jj < TJ; ++jj) t = fmaxf(t, ss[tid][jj]);
      const float m_old = mrow[tid], m_new = fmaxf(m_old, t);
      corr[tid] = expf(m_old - m_new);  // 0 on the first tile (m_old = -inf)
      mrow[tid] = m_new;
    }
    __syncthreads();
    for (int e = tid; e < R * TJ; e += kThreads) {
      const int r = e / TJ, jj = e % TJ;
      ss[r][jj] = expf(ss[r][jj] - mrow[r]);
    }
    __syncthreads();
    const float cr = corr[rr];
    float tile_sum = 0.0f;
    for (int c = 0; c < NC; ++c) acc[c] *= cr;
    for (int jj = 0; jj < TJ; ++jj) {
      const float p = ss[rr][jj];
      tile_sum += p;
      for (int c = 0; c < NC; ++c) acc[c] += p * vs[jj][lane + c * TPR];
    }
    l = l * cr + tile_sum;
    __syncthreads();  // ss, vs, mrow and corr are rewritten by the next tile
  }

  const int64_t i = i0 + rr;
  if (i >= M) return;
  float* yi = y + (b * M + i) * D;
  const float inv = 1.0f / l;
  for (int c = 0; c < NC; ++c) {
    const int64_t d = d0 + lane + c * TPR;
    if (d < D) yi[d] = acc[c] * inv;
  }
}

template <int NC>
void launch(const float* s, const float* v, float* y, int64_t B, int64_t M, int64_t N, int64_t D,
            hipStream_t stream) {
  constexpr int DC = TPR * NC;
  const int64_t row_tiles = (M + R - 1) / R;
  dim3 grid((unsigned)(B * row_tiles), (unsigned)((D + DC - 1) / DC));
  softmax_matmul<NC><<<grid, kThreads, 0, stream>>>(s, v, y, M, N, D, row_tiles);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* s = (const float*)call->tensors[0].data;
  const float* v = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i,
                D = call->params[3].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (D > 64)
    launch<8>(s, v, y, B, M, N, D, stream);  // 128 columns per block
  else if (D > 32)
    launch<4>(s, v, y, B, M, N, D, stream);
  else
    launch<2>(s, v, y, B, M, N, D, stream);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
