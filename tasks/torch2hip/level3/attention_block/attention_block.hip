// Starter for the attention_block task: a direct HIP translation of the PyTorch module, one
// simple kernel per step, correct for every size and unoptimized. Scratch buffers (hipMalloc)
// hold qkv [B*S, 3D] and the merged attention output attn [B*S, D] between the steps:
//   1. qkv projection: one thread per output, qkv = x @ w_qkv^T + b_qkv, the dot product
//      straight from global memory;
//   2. attention: one block of 128 threads per (batch, head, query row): the row's scores
//      against keys 0..i go to shared memory, then a max and a sum reduction (shared-memory
//      trees, a barrier per level), then each thread computes output features as a weighted
//      sum over the keys, re-reading v from global memory; written in merged-head layout;
//   3. output projection: one thread per output, out = attn @ w_o^T + b_o.
// Tensors (declaration order): x f32[B, S, D], w_qkv f32[3D, D], b_qkv f32[3D], w_o f32[D, D],
// b_o f32[D], out f32[B, S, D] with D = Hn * Dh; params B, S, Hn, Dh.
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

// out[r, j] = bias[j] + sum_k a[r, k] * w[j, k]; a [R, K], w [N, K] (nn.Linear's layout).
__global__ void linear(const float* a, const float* w, const float* bias, float* out, int64_t R,
                       int64_t K, int64_t N) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= R * N) return;
  const int64_t r = idx / N, j = idx % N;
  const float* ar = a + r * K;
  const float* wj = w + j * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += ar[k] * wj[k];
  out[idx] = acc + bias[j];
}

// One block per (b, h, i), blockIdx.x = (b * Hn + h) * S + i. q of token t and head h is
// qkv[t, h*Dh .. h*Dh + Dh), k at offset D, v at offset 2D; attn[t, h*Dh + e].
__global__ void attention(const float* qkv, float* attn, int64_t B, int64_t S, int64_t Hn,
                          int64_t Dh, float scale) {
  extern __shared__ float p[];  // S scores, then probabilities
  __shared__ float red[kThreads];
  const int64_t blk = blockIdx.x;
  if (blk >= B * Hn * S) return;  // uniform across the block
  const int64_t i = blk % S, h = (blk / S) % Hn, b = blk / (S * Hn);
  const int64_t D = Hn * Dh;
  const float* qi = qkv + (b * S + i) * 3 * D + h * Dh;
  const float* kb = qkv + b * S * 3 * D + D + h * Dh;
  const float* vb = qkv + b * S * 3 * D + 2 * D + h * Dh;

  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j <= i; j += kThreads) {
    float s = 0.0f;
    for (int64_t e = 0; e < Dh; ++e) s += qi[e] * kb[j * 3 * D + e];
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

  for (int64_t e = threadIdx.x; e < Dh; e += kThreads) {
    float acc = 0.0f;
    for (int64_t j = 0; j <= i; ++j) acc += p[j] * vb[j * 3 * D + e];
    attn[(b * S + i) * D + h * Dh + e] = acc / l;
  }
}

static unsigned blocks_for(int64_t n, int threads) {
  return (unsigned)((n + threads - 1) / threads);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 6 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w_qkv = (const float*)call->tensors[1].data;
  const float* b_qkv = (const float*)call->tensors[2].data;
  const float* w_o = (const float*)call->tensors[3].data;
  const float* b_o = (const float*)call->tensors[4].data;
  float* out = (float*)call->tensors[5].data;
  const int64_t B = call->params[0].i, S = call->params[1].i;
  const int64_t Hn = call->params[2].i, Dh = call->params[3].i;
  const int64_t D = Hn * Dh, T = B * S;
  if (S > 8192) return 4;  // the scores of a row must fit in shared memory
  hipStream_t stream = (hipStream_t)call->stream;

  float* qkv = nullptr;
  float* attn = nullptr;
  if (hipMalloc((void**)&qkv, T * 3 * D * sizeof(float)) != hipSuccess) return 3;
  if (hipMalloc((void**)&attn, T * D * sizeof(float)) != hipSuccess) {
    hipFree(qkv);
    return 3;
  }
  const float scale = 1.0f / sqrtf((float)Dh);
  linear<<<blocks_for(T * 3 * D, 256), 256, 0, stream>>>(x, w_qkv, b_qkv, qkv, T, D, 3 * D);
  attention<<<(unsigned)(B * Hn * S), kThreads, S * sizeof(float), stream>>>(qkv, attn, B, S, Hn,
                                                                             Dh, scale);
  linear<<<blocks_for(T * D, 256), 256, 0, stream>>>(attn, w_o, b_o, out, T, D, D);
  const bool launched = hipGetLastError() == hipSuccess;
  const bool freed_qkv = hipFree(qkv) == hipSuccess;
  const bool freed_attn = hipFree(attn) == hipSuccess;
  return launched && freed_qkv && freed_attn ? 0 : 2;
}
