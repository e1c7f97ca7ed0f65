// Starter for the max_pool1d task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output element scans its window of K inputs straight from global
// memory, skipping the padding (which counts as -inf); neighbouring windows re-read the inputs
// they share.
// Tensors (declaration order): x f32[N, C, L], y f32[N, C, Lout]; params N, C, L, K, S, P.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

__global__ void max_pool1d(const float* x, float* y, int64_t rows, int64_t L, int64_t Lout,
                           int64_t K, int64_t S, int64_t P) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows * Lout) return;
  const int64_t o = idx % Lout, r = idx / Lout;
  const float* xr = x + r * L;
  const int64_t start = o * S - P;
  float m = -INFINITY;
  for (int64_t k = 0; k < K; ++k) {
    const int64_t i = start + k;
    if (i >= 0 && i < L) m = fmaxf(m, xr[i]);
  }
  y[idx] = m;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 6)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t N = call->params[0].i, C = call->params[1].i, L = call->params[2].i;
  const int64_t K = call->params[3].i, S = call->params[4].i, P = call->params[5].i;
  const int64_t Lout = (L + 2 * P - K) / S + 1;
  const int64_t total = N * C * Lout;
  const int threads = 256;
  max_pool1d<<<(unsigned)((total + threads - 1) / threads), threads, 0,
               (hipStream_t)call->stream>>>(x, y, N * C, L, Lout, K, S, P);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
