// A faster linear_logsumexp, general in B, D and H (any size, no alignment assumed) and in the
// warp size: a shared-memory tiled GEMM whose epilogue folds each tile of logits into a running
// log-sum-exp, so the [B, H] logits never reach memory. A block of 16 x 16 threads owns 32 rows
// of x; it walks over 64-wide tiles of H, and for each computes the 32 x 64 logit tile (each
// thread a 2 x 4 register tile, rows and columns strided by 16; K in 32-wide slices of x and w
// staged in shared memory, zero-filled past the edges), adds the bias and merges its 8 logits
// into a per-row running (max, sum of exp(z - max)) in registers. H's tiles are split over
// gridDim.y blocks (about 512 blocks in all, most walking two tiles or more) so that a small batch
// still fills the GPU; each block merges its 16 column threads per row through shared memory
// and writes one (max, sum) pair per row to a scratch buffer, and a small kernel merges the
// splits of each row into y = max + log(sum).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int T = 16;   // threads per block side
constexpr int BR = 32;  // rows of x per block (2 per thread)
constexpr int BH = 64;  // columns of the logit tile (4 per thread)
constexpr int BK = 32;  // K slice
constexpr int RR = BR / T, RC = BH / T;

__device__ inline void merge(float& m, float& s, float m2, float s2) {
  const float mn = fmaxf(m, m2);
  if (mn == -INFINITY) return;  // both empty
  s = s * expf(m - mn) + s2 * expf(m2 - mn);
  m = mn;
}

__global__ __launch_bounds__(T* T) void gemm_lse(const float* __restrict__ x,
                                                 const float* __restrict__ w,
                                                 const float* __restrict__ b,
                                                 float2* __restrict__ part, int64_t B, int64_t D,
                                                 int64_t H) {
  __shared__ float xs[BK][BR + 1];
  __shared__ float ws[BK][BH + 1];
  __shared__ float red_m[BR][T + 1], red_s[BR][T + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
  const int64_t r0 = (int64_t)blockIdx.x * BR;  // row tiles in x (no 65535 limit)
  const int64_t tiles = (H + BH - 1) / BH;

  float m[RR], s[RR];
  for (int i = 0; i < RR; ++i) m[i] = -INFINITY, s[i] = 0.0f;

  for (int64_t tile = blockIdx.y; tile < tiles; tile += gridDim.y) {  // splits in y
    const int64_t h0 = tile * BH;
    float acc[RR][RC];
    for (int i = 0; i < RR; ++i)
      for (int j = 0; j < RC; ++j) acc[i][j] = 0.0f;
    for (int64_t k0 = 0; k0 < D; k0 += BK) {
      for (int l = tid; l < BR * BK; l += T * T) {  // consecutive threads, consecutive k
        const int row = l / BK, kk = l % BK;
        const int64_t r = r0 + row, k = k0 + kk;
        xs[kk][row] = (r < B && k < D) ? x[r * D + k] : 0.0f;
      }
      for (int l = tid; l < BH * BK; l += T * T) {
        const int col = l / BK, kk = l % BK;
        const int64_t h = h0 + col, k = k0 + kk;
        ws[kk][col] = (h < H && k < D) ? w[h * D + k] : 0.0f;
      }
      __syncthreads();
#pragma unroll 8
      for (int kk = 0; kk < BK; ++kk) {
        float xv[RR], wv[RC];
        for (int i = 0; i < RR; ++i) xv[i] = xs[kk][ty + i * T];
        for (int j = 0; j < RC; ++j) wv[j] = ws[kk][tx + j * T];
        for (int i = 0; i < RR; ++i)
          for (int j = 0; j < RC; ++j) acc[i][j] += xv[i] * wv[j];
      }
      __syncthreads();
    }
    // Epilogue: fold this tile's logits into the running (max, sum) of each row.
    for (int j = 0; j < RC; ++j) {
      const int64_t h = h0 + tx + j * T;
      if (h >= H) break;
      const float bh = b[h];
      for (int i = 0; i < RR; ++i) {
        const float z = acc[i][j] + bh;
        if (z > m[i]) {
          s[i] = s[i] * expf(m[i] - z) + 1.0f;
          m[i] = z;
        } else {
          s[i] += expf(z - m[i]);
        }
      }
    }
  }

  // Merge the T column threads of each row, then one pair per row and split.
  for (int i = 0; i < RR; ++i) red_m[ty + i * T][tx] = m[i], red_s[ty + i * T][tx] = s[i];
  __syncthreads();
  if (tid < BR && r0 + tid < B) {
    float mt = red_m[tid][0], st = red_s[tid][0];
    for (int c = 1; c < T; ++c) merge(mt, st, red_m[tid][c], red_s[tid][c]);
    part[(int64_t)blockIdx.y * B + r0 + tid] = make_float2(mt, st);
  }
}

__global__ void combine(const float2* __restrict__ part, float* __restrict__ y, int64_t B,
                        int splits) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= B) return;
  float m = -INFINITY, s = 0.0f;
  for (int k = 0; k < splits; ++k) {
    const float2 p = part[(int64_t)k * B + r];
    merge(m, s, p.x, p.y);
  }
  y[r] = m + logf(s);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, D = call->params[1].i, H = call->params[2].i;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t row_tiles = (B + BR - 1) / BR, col_tiles = (H + BH - 1) / BH;
  // Enough blocks for a few per compute unit of a large GPU, each still walking several tiles.
  int64_t splits = (512 + row_tiles - 1) / row_tiles;
  if (splits > (col_tiles + 1) / 2) splits = (col_tiles + 1) / 2;
  if (splits < 1) splits = 1;
  float2* part = nullptr;
  if (hipMalloc((void**)&part, (size_t)(splits * B) * sizeof(float2)) != hipSuccess) return 3;
  gemm_lse<<<dim3((unsigned)row_tiles, (unsigned)splits), dim3(T, T), 0, stream>>>(x, w, b, part, B,
                                                                                   D, H);
  combine<<<(unsigned)((B + 255) / 256), 256, 0, stream>>>(part, y, B, (int)splits);
  const bool ok = hipGetLastError() == hipSuccess;
  hipFree(part);
  return ok ? 0 : 2;
}
