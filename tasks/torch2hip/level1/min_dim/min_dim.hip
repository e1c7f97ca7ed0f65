// Starter for the min_dim task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output column y[n] (a 1-D grid over N, 256 threads a block) runs
// the M comparisons of its column alone; neighbouring threads read neighbouring n, so loads are
// coalesced, but few columns over many rows leave most of the GPU idle.
// Tensors (declaration order): x f32[M, N], y f32[N]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void min_dim(const float* x, float* y, int64_t M, int64_t N) {
  const int64_t n = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (n >= N) return;
  float v = x[n];
  for (int64_t m = 1; m < M; ++m) v = fminf(v, x[m * N + n]);
  y[n] = v;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const int64_t blocks = (N + kThreads - 1) / kThreads;
  min_dim<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
