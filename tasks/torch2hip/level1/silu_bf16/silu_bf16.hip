// Starter for the silu_bf16 task: a direct HIP translation, correct for every size and
// unoptimized. The [M, N] tensor is contiguous, so it is treated as a flat array of M * N bf16
// values: one thread per element, 256 threads per block, one 2-byte load and store each; the
// value is widened to f32, y = x / (1 + exp(-x)) computed in f32 and rounded once to bf16.
// Tensors (declaration order): x bf16[M, N], y bf16[M, N]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

// bf16 <-> f32 by bits (a bf16 is the top half of an f32; rounding to nearest even adds 0x7fff
// plus the lowest kept bit), so the file needs no bf16 header (not every HIP has hip_bf16.h).
__device__ inline float bf16_to_float(uint16_t b) { return __uint_as_float((uint32_t)b << 16); }
__device__ inline uint16_t float_to_bf16(float f) {
  const uint32_t u = __float_as_uint(f);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // finite values only
}

constexpr int kThreads = 256;

__global__ void silu_bf16(const uint16_t* x, uint16_t* y, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (i < n) {
    const float v = bf16_to_float(x[i]);
    y[i] = float_to_bf16(v / (1.0f + expf(-v)));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const uint16_t* x = (const uint16_t*)call->tensors[0].data;
  uint16_t* y = (uint16_t*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const int64_t n = M * N;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  silu_bf16<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
