// Starter for the kl_div task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels:
//  1. row_kl: blocks of 256 threads, one row at a time (block i takes rows i, i + 1024, ...),
//     three passes over the row, each ending in shared-memory tree reductions (a barrier per
//     level): the maxima of both rows, the sums of exponentials around them (log-sum-exp of
//     each), then sum_j p_j (log p_j - log q_j) with log q = s - lse(s), log p = t - lse(t),
//     p = exp(log p). Each block adds up its rows' divergences into a partial sum (a static
//     __device__ array of at most 1024 floats);
//  2. finish: one block sums the partials in a tree and divides by B.
// The result is deterministic: the same inputs give the same bits.
// Tensors (declaration order): student f32[B, C], teacher f32[B, C], loss f32[] (a scalar);
// params B, C.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__device__ float g_partial[kMaxBlocks];

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

__device__ float one_row(const float* s, const float* t, int64_t C, float* red) {
  float ms = -INFINITY, mt = -INFINITY;
  for (int64_t j = threadIdx.x; j < C; j += kThreads) {
    ms = fmaxf(ms, s[j]);
    mt = fmaxf(mt, t[j]);
  }
  ms = block_reduce(ms, red, Max());
  mt = block_reduce(mt, red, Max());

  float es = 0.0f, et = 0.0f;
  for (int64_t j = threadIdx.x; j < C; j += kThreads) {
    es += expf(s[j] - ms);
    et += expf(t[j] - mt);
  }
  const float lse_s = ms + logf(block_reduce(es, red, Add()));
  const float lse_t = mt + logf(block_reduce(et, red, Add()));

  float acc = 0.0f;
  for (int64_t j = threadIdx.x; j < C; j += kThreads) {
    const float log_p = t[j] - lse_t, log_q = s[j] - lse_s;
    acc += expf(log_p) * (log_p - log_q);
  }
  return block_reduce(acc, red, Add());
}

__global__ void row_kl(const float* student, const float* teacher, int64_t B, int64_t C) {
  __shared__ float red[kThreads];
  float sum = 0.0f;
  for (int64_t row = blockIdx.x; row < B; row += gridDim.x)
    sum += one_row(student + row * C, teacher + row * C, C, red);
  if (threadIdx.x == 0) g_partial[blockIdx.x] = sum;
}

__global__ void finish(float* loss, int blocks, int64_t B) {
  __shared__ float red[kThreads];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < blocks; i += kThreads) acc += g_partial[i];
  const float total = block_reduce(acc, red, Add());
  if (threadIdx.x == 0) loss[0] = total / (float)B;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const float* student = (const float*)call->tensors[0].data;
  const float* teacher = (const float*)call->tensors[1].data;
  float* loss = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, C = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;

  int64_t blocks = B < kMaxBlocks ? B : kMaxBlocks;
  row_kl<<<(unsigned)blocks, kThreads, 0, stream>>>(student, teacher, B, C);
  finish<<<1, kThreads, 0, stream>>>(loss, (int)blocks, B);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
