// Starter for the gelu_tanh task: a direct HIP translation, correct for every size and
// unoptimized. The [M, N] tensor is contiguous, so it is treated as a flat array of M * N floats:
// one thread per element, 256 threads per block, one scalar load, tanhf and store each (64-bit
// indices).
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void gelu_tanh(const float* x, float* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    const float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);  // sqrt(2 / pi)
    y[i] = 0.5f * v * (1.0f + tanhf(u));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const int64_t n = M * N;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  gelu_tanh<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
