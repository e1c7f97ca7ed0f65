// Starter for the matmul_rect task: a direct HIP translation of torch.matmul, correct for every
// size and unoptimized. One thread per element of C computes its dot product of length K straight
// from global memory: consecutive threads take consecutive columns, so the reads of B coalesce and
// the row of A is a broadcast, but nothing is reused through shared memory or registers.
// Tensors (declaration order): A f32[M, K], B f32[K, N], C f32[M, N]; params M, K, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void matmul_rect(const float* A, const float* B, float* C, int64_t M, int64_t K,
                            int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= M * N) return;
  const int64_t i = idx / N, j = idx % N;
  const float* a = A + i * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += a[k] * B[k * N + j];
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
  matmul_rect<<<(unsigned)blocks, threads, 0, (hipStream_t)call->stream>>>(A, B, C, M, K, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
