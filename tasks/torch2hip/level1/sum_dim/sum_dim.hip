// Starter for the sum_dim task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output y[b, c] (a 1-D grid over B * C, 256 threads a block) runs
// the R adds of its column alone, in f32; neighbouring threads read neighbouring c, so every
// load is coalesced, but a problem with few outputs and a long R leaves most of the GPU idle.
// Tensors (declaration order): x f32[B, R, C], y f32[B, C]; params B, R, C.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void sum_dim(const float* x, float* y, int64_t B, int64_t R, int64_t C) {
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;  // output index b * C + c
  if (i >= B * C) return;
  const int64_t b = i / C, c = i - b * C;
  const float* col = x + b * R * C + c;
  float sum = 0.0f;
  for (int64_t r = 0; r < R; ++r) sum += col[r * C];
  y[i] = sum;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t B = call->params[0].i, R = call->params[1].i, C = call->params[2].i;
  const int64_t blocks = (B * C + kThreads - 1) / kThreads;
  sum_dim<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, B, R, C);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
