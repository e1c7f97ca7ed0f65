// The same tiled matmul as a launcher-mode translation unit, for `nvcc -shared` latency.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
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

extern "C" int kta_launch(const kta_call* call) {
  int64_t M = call->params[0].i, N = call->params[1].i, K = call->params[2].i;
  dim3 grid(unsigned((N + TILE - 1) / TILE), unsigned((M + TILE - 1) / TILE)), block(TILE, TILE);
  matmul<<<grid, block, 0, (hipStream_t)call->stream>>>((const float*)call->tensors[0].data,
                                                         (const float*)call->tensors[1].data,
                                                         (float*)call->tensors[2].data, M, N, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
