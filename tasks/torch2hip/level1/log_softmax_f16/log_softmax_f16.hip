// Starter for the log_softmax_f16 task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row and three passes over the row, f16 values read
// one at a time and widened to f32: the row maximum and the sum of exp(x - max), each a
// shared-memory tree reduction with a barrier per level, then y = (x - max) - log(sum) rounded
// to f16.
// Tensors (declaration order): x f16[M, N], y f16[M, N]; params M, N.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <class Op>
__device__ float block_reduce(float v, float* red, Op op) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = op(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

__global__ void log_softmax_f16(const __half* x, __half* y, int64_t M, int64_t N) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const __half* xr = x + row * N;
  __half* yr = y + row * N;

  float m = -INFINITY;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) m = fmaxf(m, __half2float(xr[k]));
  m = block_reduce(m, red, Max());

  float s = 0.0f;
  for (int64_t k = threadIdx.x; k < N; k += kThreads) s += expf(__half2float(xr[k]) - m);
  const float lse = logf(block_reduce(s, red, Add()));

  for (int64_t k = threadIdx.x; k < N; k += kThreads)
    yr[k] = __float2half((__half2float(xr[k]) - m) - lse);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const __half* x = (const __half*)call->tensors[0].data;
  __half* y = (__half*)call->tensors[1].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  log_softmax_f16<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, y, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
