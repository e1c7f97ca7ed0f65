// Starter for the moe_router_top2 task: a direct HIP translation of the module, correct for
// every size and unoptimized. Two kernels: the router GEMM writes the [T, E] logits to a scratch
// buffer (one thread per logit, a dot product of length D straight from global memory), then one
// thread per token reads its E logits back, computes the softmax probabilities (max, sum of
// exp), picks the two largest (the first index wins an exact tie) and renormalizes them.
// Tensors (declaration order): x f32[T, D], wg f32[E, D], weights f32[T, 2], experts i64[T, 2];
// params T, D, E.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void router_logits(const float* x, const float* wg, float* logits, int64_t T, int64_t D,
                              int64_t E) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // i = t * E + e
  if (i >= T * E) return;
  const int64_t t = i / E, e = i % E;
  const float* xr = x + t * D;
  const float* wr = wg + e * D;
  float acc = 0.0f;
  for (int64_t k = 0; k < D; ++k) acc += xr[k] * wr[k];
  logits[i] = acc;
}

__global__ void softmax_top2(const float* logits, float* weights, int64_t* experts, int64_t T,
                             int64_t E) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  const float* l = logits + t * E;
  float m = -INFINITY;
  for (int64_t e = 0; e < E; ++e) m = fmaxf(m, l[e]);
  float s = 0.0f;
  for (int64_t e = 0; e < E; ++e) s += expf(l[e] - m);
  float p1 = -1.0f, p2 = -1.0f;
  int64_t i1 = 0, i2 = 0;
  for (int64_t e = 0; e < E; ++e) {
    const float p = expf(l[e] - m) / s;
    if (p > p1) {
      p2 = p1, i2 = i1;
      p1 = p, i1 = e;
    } else if (p > p2) {
      p2 = p, i2 = e;
    }
  }
  const float sum = p1 + p2;
  weights[2 * t] = p1 / sum;
  weights[2 * t + 1] = p2 / sum;
  experts[2 * t] = i1;
  experts[2 * t + 1] = i2;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* wg = (const float*)call->tensors[1].data;
  float* weights = (float*)call->tensors[2].data;
  int64_t* experts = (int64_t*)call->tensors[3].data;
  const int64_t T = call->params[0].i, D = call->params[1].i, E = call->params[2].i;
  if (E < 2) return 4;  // top-2 needs two experts
  hipStream_t stream = (hipStream_t)call->stream;
  float* logits = nullptr;  // [T, E]
  if (hipMalloc((void**)&logits, (size_t)(T * E) * sizeof(float)) != hipSuccess) return 3;
  router_logits<<<(unsigned)((T * E + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      x, wg, logits, T, D, E);
  softmax_top2<<<(unsigned)((T + kThreads - 1) / kThreads), kThreads, 0, stream>>>(logits, weights,
                                                                                   experts, T, E);
  const bool ok = hipGetLastError() == hipSuccess;
  hipFree(logits);
  return ok ? 0 : 2;
}
