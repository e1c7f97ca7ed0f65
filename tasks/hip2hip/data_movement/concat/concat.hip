// Baseline for the concat task (launcher mode): out = cat([a, b, c], dim=-1). Three launches of
// one copy kernel, one per input: thread e copies element e of src [m, w] to out[row, off + col],
// with (row, col) from a 64-bit division of e by w. Reads and writes are coalesced within a row
// segment, one float at a time.
// Tensors (declaration order): a f32[M, A], b f32[M, B], c f32[M, C], out f32[M, A + B + C];
// params (declaration order): M, A, B, C.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void copy_segment(const float* src, float* out, int64_t m, int64_t w, int64_t ld,
                             int64_t off) {
  const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m * w) return;
  const int64_t row = e / w;
  const int64_t col = e - row * w;
  out[row * ld + off + col] = src[e];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const float* src[3] = {(const float*)call->tensors[0].data, (const float*)call->tensors[1].data,
                         (const float*)call->tensors[2].data};
  float* out = (float*)call->tensors[3].data;
  const int64_t m = call->params[0].i;
  const int64_t w[3] = {call->params[1].i, call->params[2].i, call->params[3].i};
  const int64_t ld = w[0] + w[1] + w[2];
  hipStream_t stream = (hipStream_t)call->stream;
  int64_t off = 0;
  for (int s = 0; s < 3; ++s) {
    const int64_t blocks = (m * w[s] + kThreads - 1) / kThreads;
    copy_segment<<<(unsigned)blocks, kThreads, 0, stream>>>(src[s], out, m, w[s], ld, off);
    off += w[s];
  }
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
