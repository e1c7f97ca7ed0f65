// Baseline for the decode_attention task (launcher mode): one block of 128 threads per
// (batch, head). The query, scaled by 1/sqrt(D), goes to shared memory as f32; each thread
// scores keys j = tid, tid + 128, ... (a D-long dot product read from one key row, so the
// block's loads are strided by D), keeping the scores in dynamic shared memory; a max and a sum
// reduction (shared-memory trees, a barrier per level) give the softmax; then each thread
// computes output features d = tid, tid + 128, ... as a weighted sum over all S value rows.
// f16 values are read one at a time; everything else is f32.
// Tensors (declaration order): q f16[B, H, D], k, v f16[B, H, S, D], o f16[B, H, D];
// params: B, H, S, D. The scores of a row live in shared memory: S <= 8192 (32 KiB).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 128;
constexpr int kMaxD = 128;
constexpr int64_t kMaxS = 8192;

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

__global__ void decode_attention(const __half* q, const __half* k, const __half* v, __half* o,
                                 int64_t S, int64_t D, float scale) {
  extern __shared__ float p[];  // S scores, then probabilities
  __shared__ float qs[kMaxD];
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  const __half* qr = q + row * D;
  const __half* kr = k + row * S * D;
  const __half* vr = v + row * S * D;
  const int tid = threadIdx.x;

  for (int64_t d = tid; d < D; d += kThreads) qs[d] = __half2float(qr[d]) * scale;
  __syncthreads();

  float m = -INFINITY;
  for (int64_t j = tid; j < S; j += kThreads) {
    float s = 0.0f;
    for (int64_t d = 0; d < D; ++d) s += qs[d] * __half2float(kr[j * D + d]);
    p[j] = s;
    m = fmaxf(m, s);
  }
  m = block_reduce(m, red, Max());

  float l = 0.0f;
  for (int64_t j = tid; j < S; j += kThreads) {
    p[j] = expf(p[j] - m);
    l += p[j];
  }
  l = block_reduce(l, red, Add());  // its barriers also publish every p[j]

  for (int64_t d = tid; d < D; d += kThreads) {
    float acc = 0.0f;
    for (int64_t j = 0; j < S; ++j) acc += p[j] * __half2float(vr[j * D + d]);
    o[row * D + d] = __float2half(acc / l);
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const __half* q = (const __half*)call->tensors[0].data;
  const __half* k = (const __half*)call->tensors[1].data;
  const __half* v = (const __half*)call->tensors[2].data;
  __half* o = (__half*)call->tensors[3].data;
  const int64_t B = call->params[0].i, H = call->params[1].i;
  const int64_t S = call->params[2].i, D = call->params[3].i;
  if (S > kMaxS || D > kMaxD) return 4;  // the scores of a row must fit in shared memory
  const float scale = 1.0f / sqrtf((float)D);
  decode_attention<<<(unsigned)(B * H), kThreads, S * sizeof(float), (hipStream_t)call->stream>>>(
      q, k, v, o, S, D, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
