// Starter for the softplus task: a direct HIP translation, correct for every size and
// unoptimized. The [M, N] tensor is contiguous, so it is treated as a flat array of M * N floats:
// one thread per element, 256 threads per block, one scalar load and store each (64-bit
// indices): y = x where beta x > threshold, else log1pf(expf(beta x)) / beta.
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params M, N, beta, threshold.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void softplus(const float* x, float* y, int64_t n, float beta, float threshold) {
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    const float bv = beta * v;
    y[i] = bv > threshold ? v : log1pf(expf(bv)) / beta;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float beta = (float)call->params[2].f, threshold = (float)call->params[3].f;
  const int64_t n = M * N;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  softplus<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, n, beta,
                                                                        threshold);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
