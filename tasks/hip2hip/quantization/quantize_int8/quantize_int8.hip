// Baseline for the quantize_int8 task (launcher mode): one kernel, one block of 256 threads per
// row. Each thread takes the absolute maximum of a strided slice of the row, a shared-memory tree
// (a barrier per level) combines them, thread 0 writes the scale, and the row is read a second
// time to write the quantized values, one f16 load and one i8 store at a time.
// Tensors (declaration order): x f16[M, N], q i8[M, N], scale f32[M]; params M, N.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void quantize_rows(const __half* x, int8_t* q, float* scale, int64_t m, int64_t n) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block
  const __half* xr = x + row * n;
  int8_t* qr = q + row * n;
  const int tid = threadIdx.x;

  float amax = 0.0f;
  for (int64_t k = tid; k < n; k += kThreads) amax = fmaxf(amax, fabsf(__half2float(xr[k])));
  red[tid] = amax;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float s = red[0] / 127.0f;
  if (tid == 0) scale[row] = s;

  for (int64_t k = tid; k < n; k += kThreads) {
    float v = s > 0.0f ? rintf(__half2float(xr[k]) / s) : 0.0f;
    v = fminf(fmaxf(v, -127.0f), 127.0f);
    qr[k] = (int8_t)v;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const __half* x = (const __half*)call->tensors[0].data;
  int8_t* q = (int8_t*)call->tensors[1].data;
  float* scale = (float*)call->tensors[2].data;
  const int64_t m = call->params[0].i, n = call->params[1].i;
  quantize_rows<<<(unsigned)m, kThreads, 0, (hipStream_t)call->stream>>>(x, q, scale, m, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
