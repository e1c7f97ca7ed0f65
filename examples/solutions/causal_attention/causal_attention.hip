// A faster causal_attention, general in N and S (any size) and in D up to 128: a fused,
// flash-attention-style kernel that never writes the score matrix. A block owns BQ consecutive
// query rows, TPR threads per row, and streams the keys and values through shared memory in
// tiles of 16 rows, so each loaded key/value serves BQ queries. Per tile: the BQ x 16 scores are
// computed from shared memory, each row's running maximum is raised, its running sum rescaled
// and the scores turned into probabilities (online softmax), and every thread adds the tile's
// weighted values into its share of the row's output, kept in registers. Tiles past the block's
// last query row are skipped (causality halves the work). The head dimension is a template bound
// (32, 64 or 128) so the accumulators live in registers; features past D are zero in the staged
// tiles, so they contribute nothing. Shared rows are padded by one float so that the threads of
// a warp hit different banks.
//
// Two shapes of the same kernel, chosen by platform:
//   GPUs:       8 rows a block, 16 threads a row, whose scores and softmax are spread over the
//               row's lanes (maximum and sum by shuffles). Small problems need many blocks: N = 4
//               heads of S = 128 make 64 blocks here, 16 with 32 rows a block, and the GPU
//               would idle (measured on an H100 against PyTorch: 1.02x, the 32-row shape 0.79x).
//   kta's cpu device: 32 rows a block, 4 threads a row, each row's softmax done by its first
//               thread; lanes are emulated there, and a shuffle costs a barrier of the block
//               (1.26x against PyTorch on the CPU, the GPU shape 0.36x).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int BK = 16;  // keys per staged tile
#ifdef __HIP_PLATFORM_KTA_CPU__
constexpr int BQ = 32, TPR = 4;
constexpr bool kLaneSoftmax = false;
#else
constexpr int BQ = 8, TPR = 16;
constexpr bool kLaneSoftmax = true;
#endif
constexpr int NT = BQ * TPR;

template <int DMAX>
__global__ __launch_bounds__(NT) void causal_attention(const float* __restrict__ q,
                                                       const float* __restrict__ k,
                                                       const float* __restrict__ v,
                                                       float* __restrict__ o, int64_t S, int64_t D,
                                                       float scale) {
  __shared__ float qs[BQ][DMAX + 1];
  __shared__ float ks[BK][DMAX + 1];
  __shared__ float vs[BK][DMAX + 1];
  __shared__ float ps[BQ][BK + 1];
  __shared__ float row_corr[BQ];
  const int t = threadIdx.x, r = t / TPR, c = t % TPR;
  const int64_t n = blockIdx.y, i0 = (int64_t)blockIdx.x * BQ;
  const float* kn = k + n * S * D;
  const float* vn = v + n * S * D;

  for (int l = t; l < BQ * DMAX; l += NT) {
    const int rr = l / DMAX, d = l % DMAX;
    qs[rr][d] = (i0 + rr < S && d < D) ? q[(n * S + i0 + rr) * D + d] * scale : 0.0f;
  }
  float acc[DMAX / TPR];
  for (int u = 0; u < DMAX / TPR; ++u) acc[u] = 0.0f;
  // The row's running max and sum: every lane of the row holds them (lane softmax), or its
  // first thread alone.
  float m = -INFINITY, lsum = 0.0f;

  const int64_t last = (i0 + BQ < S ? i0 + BQ : S);  // keys needed: j < last
  for (int64_t j0 = 0; j0 < last; j0 += BK) {
    for (int l = t; l < BK * DMAX; l += NT) {
      const int jj = l / DMAX, d = l % DMAX;
      const bool in = j0 + jj < S && d < D;
      ks[jj][d] = in ? kn[(j0 + jj) * D + d] : 0.0f;
      vs[jj][d] = in ? vn[(j0 + jj) * D + d] : 0.0f;
    }
    __syncthreads();  // also publishes qs on the first tile

    float corr;
    if constexpr (kLaneSoftmax) {
      // Lane c scores keys c, c + TPR, ...; the row's maximum and sum come from its lanes.
      float s[BK / TPR];
      float mt = -INFINITY;
      for (int e = 0; e < BK / TPR; ++e) {
        const int jj = c + TPR * e;
        float dot = 0.0f;
        for (int d = 0; d < DMAX; ++d) dot += qs[r][d] * ks[jj][d];
        s[e] = (j0 + jj <= i0 + r) ? dot : -INFINITY;  // causal mask, also keys past S
        mt = fmaxf(mt, s[e]);
      }
      for (int off = TPR / 2; off > 0; off /= 2) mt = fmaxf(mt, __shfl_xor(mt, off, TPR));
      const float mnew = fmaxf(m, mt);
      // exp(m - mnew) is 0 on the first tile (m = -inf); a row with nothing visible yet (only
      // rows past S, whose output is discarded) keeps everything at zero.
      corr = mnew == -INFINITY ? 1.0f : expf(m - mnew);
      float sum = 0.0f;
      for (int e = 0; e < BK / TPR; ++e) {
        const float p = s[e] == -INFINITY ? 0.0f : expf(s[e] - mnew);
        ps[r][c + TPR * e] = p;
        sum += p;
      }
      for (int off = TPR / 2; off > 0; off /= 2) sum += __shfl_xor(sum, off, TPR);
      lsum = lsum * corr + sum;
      m = mnew;
      __syncthreads();
    } else {
      for (int jj = c; jj < BK; jj += TPR) {
        float dot = 0.0f;
        for (int d = 0; d < DMAX; ++d) dot += qs[r][d] * ks[jj][d];
        ps[r][jj] = (j0 + jj <= i0 + r) ? dot : -INFINITY;  // causal mask, also keys past S
      }
      __syncthreads();
      if (c == 0) {  // the row's first thread: its softmax step
        float mt = -INFINITY;
        for (int jj = 0; jj < BK; ++jj) mt = fmaxf(mt, ps[r][jj]);
        const float mnew = fmaxf(m, mt);
        const float cr = mnew == -INFINITY ? 1.0f : expf(m - mnew);
        float sum = 0.0f;
        for (int jj = 0; jj < BK; ++jj) {
          const float p = ps[r][jj] == -INFINITY ? 0.0f : expf(ps[r][jj] - mnew);
          ps[r][jj] = p;
          sum += p;
        }
        lsum = lsum * cr + sum;
        m = mnew;
        row_corr[r] = cr;
      }
      __syncthreads();
      corr = row_corr[r];
    }

    for (int u = 0; u < DMAX / TPR; ++u) {
      const int d = c + TPR * u;
      float a = acc[u] * corr;
      for (int jj = 0; jj < BK; ++jj) a += ps[r][jj] * vs[jj][d];
      acc[u] = a;
    }
    __syncthreads();  // the next tile overwrites ks, vs and ps
  }

  if constexpr (!kLaneSoftmax) {
    if (c == 0) row_corr[r] = lsum;  // the sum, from the row's first thread to its lanes
    __syncthreads();
    lsum = row_corr[r];
  }
  if (i0 + r >= S) return;
  const float inv = 1.0f / lsum;
  for (int u = 0; u < DMAX / TPR; ++u) {
    const int d = c + TPR * u;
    if (d < D) o[(n * S + i0 + r) * D + d] = acc[u] * inv;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* q = (const float*)call->tensors[0].data;
  const float* k = (const float*)call->tensors[1].data;
  const float* v = (const float*)call->tensors[2].data;
  float* o = (float*)call->tensors[3].data;
  const int64_t N = call->params[0].i, S = call->params[1].i, D = call->params[2].i;
  const float scale = 1.0f / sqrtf((float)D);
  dim3 grid((unsigned)((S + BQ - 1) / BQ), (unsigned)N);  // one row of blocks per head
  hipStream_t stream = (hipStream_t)call->stream;
  if (D <= 32)
    causal_attention<32><<<grid, NT, 0, stream>>>(q, k, v, o, S, D, scale);
  else if (D <= 64)
    causal_attention<64><<<grid, NT, 0, stream>>>(q, k, v, o, S, D, scale);
  else if (D <= 128)
    causal_attention<128><<<grid, NT, 0, stream>>>(q, k, v, o, S, D, scale);
  else
    return 4;  // the task bounds D by 128
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
