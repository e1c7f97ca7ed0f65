// Starter for the matmul_square task: a direct HIP translation of torch.matmul, correct for every
// size and unoptimized. One thread per element of C computes its dot product of length N straight
// from global memory: consecutive threads take consecutive columns, so the reads of B coalesce and
// the row of A is a broadcast, but nothing is reused through shared memory or registers.
// Tensors (declaration order): A f32[N, N], B f32[N, N], C f32[N, N]; params N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void matmul_square(const float* A, const float* B, float* C, int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * N) return;
  const int64_t i = idx / N, j = idx % N;
  const float* a = A + i * N;
  float acc = 0.0f;
  for (int64_t k = 0; k < N; ++k) acc += a[k] * B[k * N + j];
  C[idx] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 1)
    return 1;
  const float* A = (const float*)call->tensors[0].data;
  const float* B = (const float*)call->tensors[1].data;
  float* C = (float*)call->tensors[2].data;
  const int64_t N = call->params[0].i;
  const int threads = 256;
  const int64_t blocks = (N * N + threads - 1) / threads;
  matmul_square<<<(unsigned)blocks, threads, 0, (hipStream_t)call->stream>>>(A, B, C, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
