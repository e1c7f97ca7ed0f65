// Starter for the mean_dim task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row: each thread sums a strided slice of the row in
// f32, the block combines the partial sums with a shared-memory tree (a barrier per level), and
// thread 0 divides by N. Short rows leave most threads idle; a few long rows use few blocks.
// Tensors (declaration order): x f32[M, N], y f32[M]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void mean_dim(const float* x, float* y, int64_t M, int64_t N) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const int tid = threadIdx.x;
  const float* xr = x + row * N;
  float sum = 0.0f;
  for (int64_t k = tid; k < N; k += kThreads) sum += xr[k];
  red[tid] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) y[row] = red[0] / (float)N;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  mean_dim<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, y, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
