// An OVERFIT matmul_rect, on purpose: written the way an agent that only looked at the visible
// shapes writes it. Every visible M, K and N is a multiple of 64, so the kernel tiles C in 64 x 64
// tiles and K in 16-wide slices with no bounds checks and no edge path, and the grid is M / 64 by
// N / 64 (no rounding up). It is correct and fast on the visible shapes; on held-out shapes (M, K
// or N of 1, primes, sizes that are not multiples of 64) it reads past the rows and the end of A
// and B and leaves the edge tiles of C unwritten. Do not use it as a model solution.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int TILE = 64;  // every visible M, K and N is a multiple of 64
constexpr int BK = 16;
constexpr int T = 16;
constexpr int R = TILE / T;

__global__ __launch_bounds__(T* T) void matmul_rect(const float* __restrict__ A,
                                                    const float* __restrict__ B,
                                                    float* __restrict__ C, int64_t M, int64_t K,
                                                    int64_t N) {
  __shared__ float as[BK][TILE + 1];
  __shared__ float bs[BK][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * T + tx;
  const int64_t j0 = (int64_t)blockIdx.x * TILE;
  const int64_t i0 = (int64_t)blockIdx.y * TILE;
  float acc[R][R] = {};
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    for (int l = tid; l < TILE * BK; l += T * T) {
      const int r = l / BK, kk = l % BK;
      as[kk][r] = A[(i0 + r) * K + k0 + kk];
      const int kb = l / TILE, c = l % TILE;
      bs[kb][c] = B[(k0 + kb) * N + j0 + c];
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < R; ++j) acc[i][j] += as[kk][ty + i * T] * bs[kk][tx + j * T];
    __syncthreads();
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < R; ++j) C[(i0 + ty + i * T) * N + j0 + tx + j * T] = acc[i][j];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* A = (const float*)call->tensors[0].data;
  const float* B = (const float*)call->tensors[1].data;
  float* C = (float*)call->tensors[2].data;
  const int64_t M = call->params[0].i, K = call->params[1].i, N = call->params[2].i;
  dim3 grid((unsigned)(N / TILE), (unsigned)(M / TILE));  // exact: the sizes are multiples of 64
  matmul_rect<<<grid, dim3(T, T), 0, (hipStream_t)call->stream>>>(A, B, C, M, K, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
