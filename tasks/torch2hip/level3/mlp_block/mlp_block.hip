// Starter for the mlp_block task: a direct HIP translation of the PyTorch module, one simple
// kernel per step, correct for every size and unoptimized. Scratch buffers (hipMalloc) hold the
// normalized rows n [T, D] and the hidden activations h [T, H] between the steps:
//   1. layer_norm: one block of 256 threads per row, mean and then the variance around it each a
//      shared-memory tree reduction, then n = (x - mean) * rstd * ln_w + ln_b;
//   2. fc1: one thread per output, h = n @ w1^T + b1, the dot product straight from global memory;
//   3. gelu: in place over h, exact (erf);
//   4. fc2: one thread per output, y = h @ w2^T + b2;
//   5. residual: y += x.
// Tensors (declaration order): x f32[T, D], ln_w f32[D], ln_b f32[D], w1 f32[H, D], b1 f32[H],
// w2 f32[D, H], b2 f32[D], y f32[T, D]; params T, D, H, eps.
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

__global__ void layer_norm(const float* x, const float* g, const float* b, float* n, int64_t T,
                           int64_t D, float eps) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= T) return;  // uniform across the block
  const float* xr = x + row * D;
  float* nr = n + row * D;
  float sum = 0.0f;
  for (int64_t k = threadIdx.x; k < D; k += kThreads) sum += xr[k];
  const float mean = block_sum(sum, red) / (float)D;
  float sq = 0.0f;
  for (int64_t k = threadIdx.x; k < D; k += kThreads) {
    const float d = xr[k] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)D + eps);
  for (int64_t k = threadIdx.x; k < D; k += kThreads) nr[k] = (xr[k] - mean) * rstd * g[k] + b[k];
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

__global__ void gelu(float* h, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float z = h[i];
  h[i] = 0.5f * z * (1.0f + erff(z * 0.70710678118654752f));
}

__global__ void add_residual(float* y, const float* x, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

static unsigned blocks_for(int64_t n) { return (unsigned)((n + kThreads - 1) / kThreads); }

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 8 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* ln_w = (const float*)call->tensors[1].data;
  const float* ln_b = (const float*)call->tensors[2].data;
  const float* w1 = (const float*)call->tensors[3].data;
  const float* b1 = (const float*)call->tensors[4].data;
  const float* w2 = (const float*)call->tensors[5].data;
  const float* b2 = (const float*)call->tensors[6].data;
  float* y = (float*)call->tensors[7].data;
  const int64_t T = call->params[0].i, D = call->params[1].i, H = call->params[2].i;
  const float eps = (float)call->params[3].f;
  hipStream_t stream = (hipStream_t)call->stream;

  float* n = nullptr;
  float* h = nullptr;
  if (hipMalloc((void**)&n, T * D * sizeof(float)) != hipSuccess) return 3;
  if (hipMalloc((void**)&h, T * H * sizeof(float)) != hipSuccess) {
    hipFree(n);
    return 3;
  }
  layer_norm<<<(unsigned)T, kThreads, 0, stream>>>(x, ln_w, ln_b, n, T, D, eps);
  linear<<<blocks_for(T * H), kThreads, 0, stream>>>(n, w1, b1, h, T, D, H);
  gelu<<<blocks_for(T * H), kThreads, 0, stream>>>(h, T * H);
  linear<<<blocks_for(T * D), kThreads, 0, stream>>>(h, w2, b2, y, T, H, D);
  add_residual<<<blocks_for(T * D), kThreads, 0, stream>>>(y, x, T * D);
  const bool launched = hipGetLastError() == hipSuccess;
  const bool freed_n = hipFree(n) == hipSuccess;
  const bool freed_h = hipFree(h) == hipSuccess;
  return launched && freed_n && freed_h ? 0 : 2;
}
