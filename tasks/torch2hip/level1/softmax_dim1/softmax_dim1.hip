// Starter for the softmax_dim1 task: a direct HIP translation, correct for every size and
// unoptimized. One thread per column (b, l), 256 threads per block; consecutive threads take
// consecutive l, so each access of the three passes over c (the maximum, the sum of exponentials
// around it, and the normalized output) is coalesced across the block, and each thread walks its
// column with a stride of L. Parallelism is B * L threads, however large C is. 64-bit indices.
// Tensors (declaration order): x f32[B, C, L], y f32[B, C, L]; params B, C, L.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void softmax_dim1(const float* x, float* y, int64_t B, int64_t C, int64_t L) {
  const int64_t col = (int64_t)blockIdx.x * kThreads + threadIdx.x;  // b * L + l
  if (col >= B * L) return;
  const int64_t b = col / L, l = col - b * L;
  const float* xc = x + b * C * L + l;  // element c of the column is xc[c * L]
  float* yc = y + b * C * L + l;

  float m = -INFINITY;
  for (int64_t c = 0; c < C; ++c) m = fmaxf(m, xc[c * L]);
  float s = 0.0f;
  for (int64_t c = 0; c < C; ++c) s += expf(xc[c * L] - m);
  const float inv = 1.0f / s;
  for (int64_t c = 0; c < C; ++c) yc[c * L] = expf(xc[c * L] - m) * inv;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t B = call->params[0].i, C = call->params[1].i, L = call->params[2].i;
  const int64_t blocks = (B * L + kThreads - 1) / kThreads;
  softmax_dim1<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, B, C, L);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
