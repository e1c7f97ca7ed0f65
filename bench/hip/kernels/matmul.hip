// A 50-line tiled f32 matmul (C = A B, row-major, M x K times K x N) for compile-latency
// measurements: shared-memory tiles, a barrier per tile, an unrolled inner product.
#include <hip/hip_runtime.h>
#include <stdint.h>

#define TILE 32

__global__ void matmul(const float* A, const float* B, float* C, int64_t M, int64_t N, int64_t K) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row = (int64_t)blockIdx.y * TILE + ty;
  const int64_t col = (int64_t)blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int64_t k0 = 0; k0 < K; k0 += TILE) {
    const int64_t ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
