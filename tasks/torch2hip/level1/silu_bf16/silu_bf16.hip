// Starter for the silu_bf16 task: a direct HIP translation, correct for every size and
// unoptimized. The [M, N] tensor is contiguous, so it is treated as a flat array of M * N bf16
// values: one thread per element, 256 threads per block, one 2-byte load and store each; the
// value is widened to f32, y = x / (1 + exp(-x)) computed in f32 and rounded once to bf16.
// Tensors (declaration order): x bf16[M, N], y bf16[M, N]; params M, N.
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void silu_bf16(const __hip_bfloat16* x, __hip_bfloat16* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (i < n) {
    const float v = __bfloat162float(x[i]);
    y[i] = __float2bfloat16(v / (1.0f + expf(-v)));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const __hip_bfloat16* x = (const __hip_bfloat16*)call->tensors[0].data;
  __hip_bfloat16* y = (__hip_bfloat16*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const int64_t n = M * N;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  silu_bf16<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
