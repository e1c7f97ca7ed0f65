// Starter for the causal_attention task: a direct HIP translation, correct for every size and
// unoptimized. One block of 128 threads per query row: the row's scores against keys 0..i go to
// shared memory, then a max and a sum reduction (shared-memory trees, a barrier per level), then
// each thread computes output features as a weighted sum over the keys, re-reading v from global
// memory. Nothing is reused between query rows.
// Tensors (declaration order): q, k, v, o f32[N, S, D]; params N, S, D.
// Dynamic shared memory holds S floats: S <= 8192 (32 KiB).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 128;

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

__global__ void causal_attention(const float* q, const float* k, const float* v, float* o,
                                 int64_t N, int64_t S, int64_t D, float scale) {
  extern __shared__ float p[];  // S scores, then probabilities
  __shared__ float red[kThreads];
  const int64_t i = blockIdx.x, n = blockIdx.y;
  if (i >= S || n >= N) return;  // uniform across the block
  const float* qi = q + (n * S + i) * D;
  const float* kn = k + n * S * D;
  const float* vn = v + n * S * D;

  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j <= i; j += kThreads) {
    float s = 0.0f;
    for (int64_t d = 0; d < D; ++d) s += qi[d] * kn[j * D + d];
    p[j] = s * scale;
    m = fmaxf(m, p[j]);
  }
  m = block_reduce(m, red, Max());

  float l = 0.0f;
  for (int64_t j = threadIdx.x; j <= i; j += kThreads) {
    p[j] = expf(p[j] - m);
    l += p[j];
  }
  l = block_reduce(l, red, Add());  // its barriers also publish every p[j]

  for (int64_t d = threadIdx.x; d < D; d += kThreads) {
    float acc = 0.0f;
    for (int64_t j = 0; j <= i; ++j) acc += p[j] * vn[j * D + d];
    o[(n * S + i) * D + d] = acc / l;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* q = (const float*)call->tensors[0].data;
  const float* k = (const float*)call->tensors[1].data;
  const float* v = (const float*)call->tensors[2].data;
  float* o = (float*)call->tensors[3].data;
  const int64_t N = call->params[0].i, S = call->params[1].i, D = call->params[2].i;
  if (S > 8192) return 4;  // the scores of a row must fit in shared memory
  const float scale = 1.0f / sqrtf((float)D);
  dim3 grid((unsigned)S, (unsigned)N);
  causal_attention<<<grid, kThreads, S * sizeof(float), (hipStream_t)call->stream>>>(q, k, v, o, N,
                                                                                   S, D, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
