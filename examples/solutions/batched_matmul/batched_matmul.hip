// A faster batched f32 GEMM, general in BATCH, M, N and K (any sizes, edges zero-filled), plain
// f32 FMAs (no TF32). Two kernels, chosen per shape by the launcher:
//  * small matrices (M * K + K * N <= 2048 floats, M * N <= 1024): gemm_small packs
//    G = max(1, 256 / (M * N)) whole matrices into one block of 256 threads; since the
//    matrices of a batch are back to back, the block copies G A's and G B's to shared memory
//    as two contiguous, coalesced runs, every thread computes outputs from shared memory and
//    the G C's are written as one contiguous run (the baseline's 16 x 16 block idles 3/4 of
//    its threads on an 8 x 8 matrix and loads through a K loop of one step);
//  * larger ones: gemm_tiled, register tiling (a 4 x 4 or 2 x 2 micro-tile per thread from a
//    k-major A tile and a B tile in shared memory, double-buffered, one barrier per K step of
//    16) with the batch in blockIdx.z; the block tile (64 x 64, 32 x 64 or 32 x 32) is the
//    largest that still gives about a hundred blocks or more.
// Tensors (declaration order): A f32[BATCH, M, K], B f32[BATCH, K, N], C f32[BATCH, M, N];
// params: BATCH, M, N, K.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kBK = 16;  // K step

template <int BM, int BN, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_tiled(const float* __restrict__ a0, const float* __restrict__ b0, float* __restrict__ c0,
               int64_t batch, int64_t m, int64_t n, int64_t k) {
  constexpr int TX = BN / TN, TY = BM / TM, NT = TX * TY;
  constexpr int LA = BM * kBK / NT, LB = kBK * BN / NT;
  static_assert(LA * NT == BM * kBK && LB * NT == kBK * BN, "tile not divisible by threads");
  __shared__ __align__(16) float as[2][kBK][BM + 4];
  __shared__ __align__(16) float bs[2][kBK][BN + 4];
  const int tid = threadIdx.x;
  const int tx = tid % TX, ty = tid / TX;
  const int64_t row0 = (int64_t)blockIdx.y * BM, col0 = (int64_t)blockIdx.x * BN;
  for (int64_t z = blockIdx.z; z < batch; z += gridDim.z) {
    const float* __restrict__ a = a0 + z * m * k;
    const float* __restrict__ b = b0 + z * k * n;
    float* __restrict__ c = c0 + z * m * n;
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
  }  // z
}

constexpr int kSmallThreads = 256;
constexpr int kSmallFloats = 4096;  // shared floats for the A's and B's of one block

__global__ void __launch_bounds__(kSmallThreads)
    gemm_small(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
               int64_t batch, int64_t m, int64_t n, int64_t k, int64_t g) {
  __shared__ float sm[kSmallFloats];
  const int64_t mk = m * k, kn = k * n, mn = m * n;
  const int64_t z0 = (int64_t)blockIdx.x * g;
  const int64_t gc = batch - z0 < g ? batch - z0 : g;  // matrices in this block
  float* as = sm;
  float* bs = sm + gc * mk;
  const int tid = threadIdx.x;
  const float* ag = a + z0 * mk;
  const float* bg = b + z0 * kn;
  for (int64_t e = tid; e < gc * mk; e += kSmallThreads) as[e] = ag[e];
  for (int64_t e = tid; e < gc * kn; e += kSmallThreads) bs[e] = bg[e];
  __syncthreads();
  float* cg = c + z0 * mn;
  for (int64_t e = tid; e < gc * mn; e += kSmallThreads) {
    const int64_t z = e / mn, rem = e - z * mn;
    const int64_t i = rem / n, j = rem - i * n;
    const float* ar = as + z * mk + i * k;
    const float* bc = bs + z * kn + j;
    float acc0 = 0.0f, acc1 = 0.0f;
    int64_t p = 0;
    for (; p + 1 < k; p += 2) {
      acc0 = fmaf(ar[p], bc[p * n], acc0);
      acc1 = fmaf(ar[p + 1], bc[(p + 1) * n], acc1);
    }
    if (p < k) acc0 = fmaf(ar[p], bc[p * n], acc0);
    cg[e] = acc0 + acc1;
  }
}

template <int BM, int BN, int TM, int TN>
static void launch(const float* a, const float* b, float* c, int64_t batch, int64_t m, int64_t n,
                   int64_t k, hipStream_t stream) {
  const dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)((m + BM - 1) / BM),
                  (unsigned)(batch < 65535 ? batch : 65535));
  gemm_tiled<BM, BN, TM, TN><<<grid, (BM / TM) * (BN / TN), 0, stream>>>(a, b, c, batch, m, n, k);
}

static int64_t blocks(int64_t batch, int64_t m, int64_t n, int64_t bm, int64_t bn) {
  return batch * ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* a = (const float*)call->tensors[0].data;
  const float* b = (const float*)call->tensors[1].data;
  float* c = (float*)call->tensors[2].data;
  const int64_t batch = call->params[0].i, m = call->params[1].i;
  const int64_t n = call->params[2].i, k = call->params[3].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (m * k + k * n <= kSmallFloats / 2 && m * n <= 1024) {
    int64_t g = kSmallThreads / (m * n);
    if (g < 1) g = 1;
    if (g * (m * k + k * n) > kSmallFloats) g = kSmallFloats / (m * k + k * n);
    gemm_small<<<(unsigned)((batch + g - 1) / g), kSmallThreads, 0, stream>>>(a, b, c, batch, m, n,
                                                                              k, g);
  } else if (blocks(batch, m, n, 64, 64) >= 120) {
    launch<64, 64, 4, 4>(a, b, c, batch, m, n, k, stream);
  } else if (blocks(batch, m, n, 32, 64) >= 100) {
    launch<32, 64, 4, 4>(a, b, c, batch, m, n, k, stream);
  } else if (blocks(batch, m, n, 32, 32) >= 100) {
    launch<32, 32, 4, 4>(a, b, c, batch, m, n, k, stream);
  } else {
    launch<32, 32, 2, 2>(a, b, c, batch, m, n, k, stream);
  }
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
