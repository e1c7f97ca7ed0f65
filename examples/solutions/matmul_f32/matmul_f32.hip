// A faster f32 GEMM, general in N (any size, edges zero-filled), plain f32 FMAs (no TF32).
// Compared with the baseline:
//  * register tiling: each thread computes a TM x TN micro-tile (4 x 4, or 2 x 2 for small N)
//    from TM values of A and TN values of B read out of shared memory per k, so each shared
//    read feeds TM or TN FMAs instead of one (the baseline reads 5 values for 4 FMAs);
//  * the A tile is stored transposed (k-major) so both operands of the inner loop are
//    contiguous in shared memory and are read as vectors;
//  * double buffering: the next K slice is loaded into registers while the current one is
//    multiplied, then stored into the other shared buffer: one barrier per K step;
//  * the launcher picks the block tile (64 x 64, 32 x 64 or 32 x 32) from N so that the grid
//    still has about a hundred blocks or more at small N.
// Tensors (declaration order): A f32[N, N], B f32[N, N], C f32[N, N]; params: N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kBK = 16;  // K step

template <int BM, int BN, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
               int64_t m, int64_t n, int64_t k) {
  constexpr int TX = BN / TN, TY = BM / TM, NT = TX * TY;
  constexpr int LA = BM * kBK / NT, LB = kBK * BN / NT;
  static_assert(LA * NT == BM * kBK && LB * NT == kBK * BN, "tile not divisible by threads");
  __shared__ __align__(16) float as[2][kBK][BM + 4];
  __shared__ __align__(16) float bs[2][kBK][BN + 4];
  const int tid = threadIdx.x;
  const int tx = tid % TX, ty = tid / TX;
  const int64_t row0 = (int64_t)blockIdx.y * BM, col0 = (int64_t)blockIdx.x * BN;
  float ra[LA], rb[LB];
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

      // Global -> registers for the K slice starting at k0 (zero past the edges).
#define KTA_LOAD(k0)                                         \
  {                                                          \
    _Pragma("unroll") for (int l = 0; l < LA; ++l) {         \
      const int e = tid + l * NT, r = e / kBK, cc = e % kBK; \
      const int64_t gr = row0 + r, gc = (k0) + cc;           \
      ra[l] = (gr < m && gc < k) ? a[gr * k + gc] : 0.0f;    \
    }                                                        \
    _Pragma("unroll") for (int l = 0; l < LB; ++l) {         \
      const int e = tid + l * NT, r = e / BN, cc = e % BN;   \
      const int64_t gr = (k0) + r, gc = col0 + cc;           \
      rb[l] = (gr < k && gc < n) ? b[gr * n + gc] : 0.0f;    \
    }                                                        \
  }
      // Registers -> shared buffer buf (A transposed to k-major).
#define KTA_STORE(buf)                               \
  {                                                  \
    _Pragma("unroll") for (int l = 0; l < LA; ++l) { \
      const int e = tid + l * NT;                    \
      as[buf][e % kBK][e / kBK] = ra[l];             \
    }                                                \
    _Pragma("unroll") for (int l = 0; l < LB; ++l) { \
      const int e = tid + l * NT;                    \
      bs[buf][e / BN][e % BN] = rb[l];               \
    }                                                \
  }

  KTA_LOAD(0)
  KTA_STORE(0)
  __syncthreads();
  int cur = 0;
  for (int64_t k0 = 0; k0 < k; k0 += kBK) {
    const bool more = k0 + kBK < k;
    if (more) KTA_LOAD(k0 + kBK)
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float av[TM], bv[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) av[i] = as[cur][kk][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) bv[j] = bs[cur][kk][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    // The other buffer was last read before the previous barrier: safe to overwrite.
    if (more) KTA_STORE(cur ^ 1)
    __syncthreads();
    cur ^= 1;
  }
#undef KTA_LOAD
#undef KTA_STORE

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int64_t row = row0 + ty * TM + i;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int64_t col = col0 + tx * TN + j;
      if (col < n) c[row * n + col] = acc[i][j];
    }
  }
}

template <int BM, int BN, int TM, int TN>
static void launch(const float* a, const float* b, float* c, int64_t n, hipStream_t stream) {
  const dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)((n + BM - 1) / BM));
  gemm_tiled<BM, BN, TM, TN><<<grid, (BM / TM) * (BN / TN), 0, stream>>>(a, b, c, n, n, n);
}

static int64_t blocks(int64_t n, int64_t bm, int64_t bn) {
  return ((n + bm - 1) / bm) * ((n + bn - 1) / bn);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 1)
    return 1;
  const float* a = (const float*)call->tensors[0].data;
  const float* b = (const float*)call->tensors[1].data;
  float* c = (float*)call->tensors[2].data;
  const int64_t n = call->params[0].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (blocks(n, 64, 64) >= 120)
    launch<64, 64, 4, 4>(a, b, c, n, stream);
  else if (blocks(n, 32, 64) >= 100)
    launch<32, 64, 4, 4>(a, b, c, n, stream);
  else if (blocks(n, 32, 32) >= 100)
    launch<32, 32, 4, 4>(a, b, c, n, stream);
  else
    launch<32, 32, 2, 2>(a, b, c, n, stream);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
