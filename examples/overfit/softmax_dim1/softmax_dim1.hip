// An overfit softmax_dim1, written the way an agent tuned to the visible shapes writes it. Every
// visible C is one of 21, 32, 64, 256 and 1024, so the kernel is a template on C: one thread per
// column (b, l), the whole column loaded once into registers (fully unrolled, so x is read once
// instead of three times), and the launcher instantiates it for exactly those five values. It is
// correct on every visible point and fast there for small C, and writes nothing at all for any
// other C: every held-out point fails. Kept as a test of the held-out run and of `kta audit`.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

template <int C>
__global__ void softmax_col(const float* x, float* y, int64_t B, int64_t L) {
  const int64_t col = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (col >= B * L) return;
  const int64_t b = col / L, l = col - b * L;
  const float* xc = x + b * C * L + l;
  float* yc = y + b * C * L + l;
  float v[C];
  float m = -INFINITY;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    v[c] = xc[c * L];
    m = fmaxf(m, v[c]);
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    v[c] = __expf(v[c] - m);
    s += v[c];
  }
  const float inv = 1.0f / s;
#pragma unroll
  for (int c = 0; c < C; ++c) yc[c * L] = v[c] * inv;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t B = call->params[0].i, C = call->params[1].i, L = call->params[2].i;
  const unsigned blocks = (unsigned)((B * L + kThreads - 1) / kThreads);
  hipStream_t stream = (hipStream_t)call->stream;
  switch (C) {  // the channel counts of the task's shapes
    case 21: softmax_col<21><<<blocks, kThreads, 0, stream>>>(x, y, B, L); break;
    case 32: softmax_col<32><<<blocks, kThreads, 0, stream>>>(x, y, B, L); break;
    case 64: softmax_col<64><<<blocks, kThreads, 0, stream>>>(x, y, B, L); break;
    case 256: softmax_col<256><<<blocks, kThreads, 0, stream>>>(x, y, B, L); break;
    case 1024: softmax_col<1024><<<blocks, kThreads, 0, stream>>>(x, y, B, L); break;
  }
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
