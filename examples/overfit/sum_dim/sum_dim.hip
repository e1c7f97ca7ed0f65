// An OVERFIT sum_dim, written the way an agent that tuned on the visible shapes writes it:
// every visible C is a multiple of 4 and every visible R a multiple of 64, so each thread takes
// 4 columns (C / 4 threads a batch, no tail) and the R loop is unrolled by 64 with no remainder
// loop. It passes every visible shape and is wrong wherever C % 4 != 0 (the last columns are
// never written) or R % 64 != 0 (the last rows are never added), e.g. R = 1. Kept as a test of
// held-out shapes and of `kta audit`; it is not a solution.
// Tensors (declaration order): x f32[B, R, C], y f32[B, C]; params B, R, C.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kCols = 4;     // every visible C is a multiple of 4
constexpr int kUnroll = 64;  // every visible R is a multiple of 64

__global__ void sum_dim(const float* x, float* y, int64_t B, int64_t R, int64_t C) {
  const int64_t quads = C / kCols;
  const int64_t t = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (t >= B * quads) return;
  const int64_t b = t / quads, c = (t - b * quads) * kCols;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  for (int64_t r = 0; r + kUnroll <= R; r += kUnroll) {
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const float* p = x + (b * R + r + j) * C + c;
      s0 += p[0];
      s1 += p[1];
      s2 += p[2];
      s3 += p[3];
    }
  }
  float* out = y + b * C + c;
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t B = call->params[0].i, R = call->params[1].i, C = call->params[2].i;
  const int64_t blocks = (B * (C / kCols) + kThreads - 1) / kThreads;
  if (blocks == 0) return 0;  // C < 4: nothing to launch
  sum_dim<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, B, R, C);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
