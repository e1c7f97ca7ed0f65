// Naive matmul: every extent is a parameter and every access is guarded.
#include <hip/hip_runtime.h>

__global__ void matmul(const float* a, const float* b, float* c, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += a[row * K + k] * b[k * N + col];
    c[row * N + col] = acc;
  }
}

void launch(const float* a, const float* b, float* c, int M, int N, int K, hipStream_t s) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  hipLaunchKernelGGL(matmul, grid, block, 0, s, a, b, c, M, N, K);
}
