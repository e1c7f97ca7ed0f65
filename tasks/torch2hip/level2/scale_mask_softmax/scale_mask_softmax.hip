// Starter for the scale_mask_softmax task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row (b, m) and three passes over the row, each
// recomputing z = x * scale + mask and ending in a shared-memory tree reduction with a barrier
// per level: the row maximum, the sum of exp(z - max), then the normalized outputs.
// Tensors (declaration order): x f32[B, M, N], mask f32[M, N], y f32[B, M, N];
// params B, M, N, scale.
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

__global__ void scale_mask_softmax(const float* x, const float* mask, float* y, int64_t rows,
                                   int64_t M, int64_t N, float scale) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;  // row = b * M + m
  if (row >= rows) return;         // uniform across the block
  const float* xr = x + row * N;
  const float* mr = mask + (row % M) * N;  // the mask row is shared by every batch entry
  float* yr = y + row * N;

  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) m = fmaxf(m, xr[j] * scale + mr[j]);
  m = block_reduce(m, red, Max());

  float s = 0.0f;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) s += expf(xr[j] * scale + mr[j] - m);
  const float inv = 1.0f / block_reduce(s, red, Add());

  for (int64_t j = threadIdx.x; j < N; j += kThreads) yr[j] = expf(xr[j] * scale + mr[j] - m) * inv;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* mask = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i;
  const float scale = (float)call->params[3].f;
  const int64_t rows = B * M;
  scale_mask_softmax<<<(unsigned)rows, kThreads, 0, (hipStream_t)call->stream>>>(x, mask, y, rows,
                                                                                 M, N, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
