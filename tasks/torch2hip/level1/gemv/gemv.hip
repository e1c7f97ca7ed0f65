// Starter for the gemv task: a direct HIP translation of torch.mv, correct for every size and
// unoptimized. One block of 256 threads per row of A: each thread sums a strided slice of the row
// (coalesced, one float at a time), then the block combines the 256 partial sums with a
// shared-memory tree reduction, a barrier per level.
// Tensors (declaration order): A f32[M, K], x f32[K], y f32[M]; params M, K.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void gemv(const float* A, const float* x, float* y, int64_t M, int64_t K) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const float* a = A + row * K;
  const int tid = threadIdx.x;
  float acc = 0.0f;
  for (int64_t k = tid; k < K; k += kThreads) acc += a[k] * x[k];
  red[tid] = acc;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) y[row] = red[0];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const float* A = (const float*)call->tensors[0].data;
  const float* x = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t M = call->params[0].i, K = call->params[1].i;
  gemv<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(A, x, y, M, K);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
