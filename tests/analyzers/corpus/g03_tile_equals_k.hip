// Tiled matmul. TILE happens to equal the visible K (64); it is a tile, not a shape.
#include <hip/hip_runtime.h>

#define TILE 64

__global__ void matmul_tiled(const float* a, const float* b, float* c, int M, int N, int K) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ka = t * TILE + threadIdx.x;
    int kb = t * TILE + threadIdx.y;
    as[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? a[row * K + ka] : 0.0f;
    bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? b[kb * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) c[row * N + col] = acc;
}
