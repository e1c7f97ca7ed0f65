// Starter for the matmul_bmm task: a direct HIP translation of torch.bmm, correct for every size
// and unoptimized. One thread per element of C (all the matrices of the batch in one flat grid)
// computes its dot product of length K straight from global memory: consecutive threads take
// consecutive columns, so the reads of B coalesce and the row of A is a broadcast, but nothing is
// reused through shared memory or registers.
// Tensors (declaration order): A f32[Bt, M, K], B f32[Bt, K, N], C f32[Bt, M, N];
// params Bt, M, K, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void matmul_bmm(const float* A, const float* B, float* C, int64_t Bt, int64_t M,
                           int64_t K, int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= Bt * M * N) return;
  const int64_t j = idx % N, i = (idx / N) % M, z = idx / (M * N);
  const float* a = A + (z * M + i) * K;
  const float* b = B + z * K * N + j;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += a[k] * b[k * N];
  C[idx] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* A = (const float*)call->tensors[0].data;
  const float* B = (const float*)call->tensors[1].data;
  float* C = (float*)call->tensors[2].data;
  const int64_t Bt = call->params[0].i, M = call->params[1].i;
  const int64_t K = call->params[2].i, N = call->params[3].i;
  const int threads = 256;
  const int64_t blocks = (Bt * M * N + threads - 1) / threads;
  matmul_bmm<<<(unsigned)blocks, threads, 0, (hipStream_t)call->stream>>>(A, B, C, Bt, M, K, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
