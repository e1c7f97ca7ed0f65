// Starter for the huber_loss task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels, as a reduction library would run them:
//  1. partial_sums: up to 1024 blocks of 256 threads; each thread accumulates the Huber term of
//     d = x - t (0.5 d^2 where |d| < delta, else delta (|d| - delta / 2)) over a grid-strided
//     slice (one float at a time), and each block reduces its threads' sums with a shared-memory
//     tree (a barrier per level) into a partial sum per block;
//  2. finish: one block sums the partials the same way and divides by the element count.
// The partials live in a static __device__ array (no allocation per call). The result is
// deterministic: the same inputs give the same bits.
// Tensors (declaration order): x f32[B, D], target f32[B, D], loss f32[] (a scalar);
// params B, D, delta.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__device__ float g_partial[kMaxBlocks];

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  return red[0];
}

__device__ float huber(float d, float delta) {
  const float a = fabsf(d);
  return a < delta ? 0.5f * a * a : delta * (a - 0.5f * delta);
}

__global__ void partial_sums(const float* x, const float* t, int64_t n, float delta) {
  __shared__ float red[kThreads];
  float acc = 0.0f;
  const int64_t step = (int64_t)gridDim.x * kThreads;
  for (int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x; i < n; i += step) {
    acc += huber(x[i] - t[i], delta);
  }
  const float total = block_sum(acc, red);
  if (threadIdx.x == 0) g_partial[blockIdx.x] = total;
}

__global__ void finish(float* loss, int blocks, int64_t n) {
  __shared__ float red[kThreads];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < blocks; i += kThreads) acc += g_partial[i];
  const float total = block_sum(acc, red);
  if (threadIdx.x == 0) loss[0] = total / (float)n;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* t = (const float*)call->tensors[1].data;
  float* loss = (float*)call->tensors[2].data;
  const int64_t n = call->params[0].i * call->params[1].i;
  const float delta = (float)call->params[2].f;
  hipStream_t stream = (hipStream_t)call->stream;
  int64_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  partial_sums<<<(unsigned)blocks, kThreads, 0, stream>>>(x, t, n, delta);
  finish<<<1, kThreads, 0, stream>>>(loss, (int)blocks, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
