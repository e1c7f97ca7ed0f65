// Starter for the cosine_similarity task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row: each thread accumulates its strided share of
// a.b, a.a and b.b, then the block reduces the three sums one after another, each with a
// shared-memory tree (a barrier per level), and thread 0 divides.
// Tensors (declaration order): a f32[M, D], b f32[M, D], y f32[M]; params M, D, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

__global__ void cosine_similarity(const float* a, const float* b, float* y, int64_t M, int64_t D,
                                  float eps) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const float* ar = a + row * D;
  const float* br = b + row * D;
  float ab = 0.0f, aa = 0.0f, bb = 0.0f;
  for (int64_t k = threadIdx.x; k < D; k += kThreads) {
    ab += ar[k] * br[k];
    aa += ar[k] * ar[k];
    bb += br[k] * br[k];
  }
  ab = block_sum(ab, red);
  aa = block_sum(aa, red);
  bb = block_sum(bb, red);
  if (threadIdx.x == 0) y[row] = ab / (fmaxf(sqrtf(aa), eps) * fmaxf(sqrtf(bb), eps));
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* a = (const float*)call->tensors[0].data;
  const float* b = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t M = call->params[0].i, D = call->params[1].i;
  const float eps = (float)call->params[2].f;
  cosine_similarity<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(a, b, y, M, D, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
