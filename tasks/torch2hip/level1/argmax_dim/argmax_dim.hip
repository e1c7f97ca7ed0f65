// Starter for the argmax_dim task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output y[b, l] (a 1-D grid over B * L, 256 threads a block) scans
// its C values alone, keeping the first index of the maximum (only a strictly greater value
// replaces it); neighbouring threads read neighbouring l, so loads are coalesced, but few
// outputs with many classes leave most of the GPU idle.
// Tensors (declaration order): x f32[B, C, L], y i64[B, L]; params B, C, L.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void argmax_dim(const float* x, int64_t* y, int64_t B, int64_t C, int64_t L) {
  const int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;  // output index b * L + l
  if (i >= B * L) return;
  const int64_t b = i / L, l = i - b * L;
  const float* col = x + b * C * L + l;
  float best = col[0];
  int64_t arg = 0;
  for (int64_t c = 1; c < C; ++c) {
    const float v = col[c * L];
    if (v > best) {
      best = v;
      arg = c;
    }
  }
  y[i] = arg;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  int64_t* y = (int64_t*)call->tensors[1].data;
  const int64_t B = call->params[0].i, C = call->params[1].i, L = call->params[2].i;
  const int64_t blocks = (B * L + kThreads - 1) / kThreads;
  argmax_dim<<<(unsigned)blocks, kThreads, 0, (hipStream_t)call->stream>>>(x, y, B, C, L);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
