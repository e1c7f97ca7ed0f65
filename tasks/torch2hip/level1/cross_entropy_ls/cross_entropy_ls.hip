// Starter for the cross_entropy_ls task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row and three passes over the row, each ending in a
// shared-memory tree reduction with a barrier per level: the maximum, the sum of exponentials
// around it, and the plain sum of the logits (for the smoothing term).
// Tensors (declaration order): logits f32[B, C], target i64[B], loss f32[B];
// params B, C, smoothing.
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

__global__ void cross_entropy_ls(const float* logits, const int64_t* target, float* loss,
                                 int64_t B, int64_t C, float smoothing) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= B) return;  // uniform across the block
  const float* z = logits + row * C;

  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j < C; j += kThreads) m = fmaxf(m, z[j]);
  m = block_reduce(m, red, Max());

  float e = 0.0f;
  for (int64_t j = threadIdx.x; j < C; j += kThreads) e += expf(z[j] - m);
  const float lse = m + logf(block_reduce(e, red, Add()));

  float s = 0.0f;
  for (int64_t j = threadIdx.x; j < C; j += kThreads) s += z[j];
  const float mean = block_reduce(s, red, Add()) / (float)C;

  if (threadIdx.x == 0) {
    const float picked = z[target[row]];
    loss[row] = (1.0f - smoothing) * (lse - picked) + smoothing * (lse - mean);
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* logits = (const float*)call->tensors[0].data;
  const int64_t* target = (const int64_t*)call->tensors[1].data;
  float* loss = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, C = call->params[1].i;
  const float smoothing = (float)call->params[2].f;
  cross_entropy_ls<<<(unsigned)B, kThreads, 0, (hipStream_t)call->stream>>>(logits, target, loss, B,
                                                                          C, smoothing);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
