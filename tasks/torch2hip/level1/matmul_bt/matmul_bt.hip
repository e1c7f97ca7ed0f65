// Starter for the matmul_bt task: a direct HIP translation of F.linear without a bias, correct for
// every size and unoptimized. One thread per element of C computes the dot product of a row of A
// with a row of B (both contiguous in k) straight from global memory; consecutive threads take
// consecutive rows of B, so their reads are K floats apart and nothing is reused through shared
// memory or registers.
// Tensors (declaration order): A f32[M, K], B f32[N, K], C f32[M, N]; params M, K, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void matmul_bt(const float* A, const float* B, float* C, int64_t M, int64_t K,
                          int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= M * N) return;
  const int64_t i = idx / N, j = idx % N;
  const float* a = A + i * K;
  const float* b = B + j * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += a[k] * b[k];
  C[idx] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* A = (const float*)call->tensors[0].data;
  const float* B = (const float*)call->tensors[1].data;
  float* C = (float*)call->tensors[2].data;
  const int64_t M = call->params[0].i, K = call->params[1].i, N = call->params[2].i;
  const int threads = 256;
  const int64_t blocks = (M * N + threads - 1) / threads;
  matmul_bt<<<(unsigned)blocks, threads, 0, (hipStream_t)call->stream>>>(A, B, C, M, K, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
