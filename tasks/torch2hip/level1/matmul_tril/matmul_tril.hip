// Starter for the matmul_tril task: a direct HIP translation of the triangular product, correct
// for every size and unoptimized. One thread per element of C: above the diagonal it writes 0;
// on and below it, it sums A[i, k] B[k, j] over the k where both factors are in their lower
// triangles (j <= k <= i), straight from global memory. It skips the zero products, but nothing
// is reused through shared memory or registers, and the threads of a block, which cover one row,
// do very different amounts of work.
// Tensors (declaration order): A f32[N, N], B f32[N, N], C f32[N, N]; params N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void matmul_tril(const float* A, const float* B, float* C, int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * N) return;
  const int64_t i = idx / N, j = idx % N;
  float acc = 0.0f;
  for (int64_t k = j; k <= i; ++k) acc += A[i * N + k] * B[k * N + j];
  C[idx] = acc;  // 0 when j > i: the loop is empty
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
  matmul_tril<<<(unsigned)blocks, threads, 0, (hipStream_t)call->stream>>>(A, B, C, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
