// Baseline for the matmul_f16 task (launcher mode): C[M, N] = A[M, K] @ B[K, N] with f16 inputs
// and f32 accumulation and output. Shared-memory tiling: one block of 16 x 16 threads per 32 x 32
// tile of C, each thread 2 x 2 outputs (rows ty and ty + 16, columns tx and tx + 16). The K
// dimension is walked in steps of 32; each thread loads 4 f16 elements of the A tile and 4 of
// the B tile, one at a time (coalesced along rows, zero past the edges), widens them to f32 into
// shared memory, and after a barrier accumulates 32 products per output in f32 registers.
// Tensors (declaration order): A f16[M, K], B f16[K, N], C f32[M, N]; params: M, N, K.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kTile = 32;     // C tile and K step
constexpr int kThreads = 16;  // threads per block side: each thread covers 2 x 2 outputs

__global__ void matmul_f16(const __half* a, const __half* b, float* c, int64_t m, int64_t n,
                           int64_t k) {
  __shared__ float as[kTile][kTile + 1];  // padded: threads of a warp read down a column of A
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row0 = (int64_t)blockIdx.y * kTile, col0 = (int64_t)blockIdx.x * kTile;
  float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};

  for (int64_t k0 = 0; k0 < k; k0 += kTile) {
    for (int r = ty; r < kTile; r += kThreads) {
      for (int q = tx; q < kTile; q += kThreads) {
        const int64_t ar = row0 + r, ak = k0 + q;
        as[r][q] = (ar < m && ak < k) ? __half2float(a[ar * k + ak]) : 0.0f;
        const int64_t bk = k0 + r, bc = col0 + q;
        bs[r][q] = (bk < k && bc < n) ? __half2float(b[bk * n + bc]) : 0.0f;
      }
    }
    __syncthreads();
    for (int p = 0; p < kTile; ++p) {
      const float a0 = as[ty][p], a1 = as[ty + kThreads][p];
      const float b0 = bs[p][tx], b1 = bs[p][tx + kThreads];
      acc[0][0] += a0 * b0;
      acc[0][1] += a0 * b1;
      acc[1][0] += a1 * b0;
      acc[1][1] += a1 * b1;
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      const int64_t row = row0 + ty + i * kThreads, col = col0 + tx + j * kThreads;
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const __half* a = (const __half*)call->tensors[0].data;
  const __half* b = (const __half*)call->tensors[1].data;
  float* c = (float*)call->tensors[2].data;
  const int64_t m = call->params[0].i, n = call->params[1].i, k = call->params[2].i;
  const dim3 grid((unsigned)((n + kTile - 1) / kTile), (unsigned)((m + kTile - 1) / kTile));
  matmul_f16<<<grid, dim3(kThreads, kThreads), 0, (hipStream_t)call->stream>>>(a, b, c, m, n, k);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
