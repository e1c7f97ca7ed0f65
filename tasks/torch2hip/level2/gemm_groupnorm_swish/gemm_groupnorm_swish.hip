// Starter for the gemm_groupnorm_swish task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels, as PyTorch runs it: one thread per output computes the linear layer's
// dot product of length K straight from global memory and writes z (+ bias) into y; then one
// block of 256 threads per (row, group) reads its HG values of z back, computes the mean and then
// the variance around it with shared-memory tree reductions, and overwrites them with
// swish(normalized * gamma + beta).
// Tensors (declaration order): x f32[B, K], w f32[H, K], b, gamma, beta f32[H], y f32[B, H]
// with H = G * HG; params B, K, G, HG, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

// z[r, h] = x[r, :] . w[h, :] + b[h], written to y. Rows on grid x, features on grid y.
__global__ void linear(const float* x, const float* w, const float* b, float* y, int64_t B,
                       int64_t K, int64_t H) {
  const int64_t r = blockIdx.x;
  const int64_t h = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
  if (h >= H || r >= B) return;
  const float* xr = x + r * K;
  const float* wr = w + h * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += xr[k] * wr[k];
  y[r * H + h] = acc + b[h];
}

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

// One block per (row, group): block index rg = r * G + g; group g covers features
// [g HG, (g + 1) HG), so the group's HG values are contiguous in row-major [B, G * HG].
__global__ void groupnorm_swish(const float* gamma, const float* beta, float* y, int64_t B,
                                int64_t G, int64_t HG, float eps) {
  __shared__ float red[kThreads];
  const int64_t rg = blockIdx.x;
  if (rg >= B * G) return;  // uniform across the block
  const int64_t h0 = (rg % G) * HG;
  float* z = y + rg * HG;
  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < HG; i += kThreads) sum += z[i];
  const float mean = block_sum(sum, red) / (float)HG;
  float sq = 0.0f;
  for (int64_t i = threadIdx.x; i < HG; i += kThreads) {
    const float d = z[i] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)HG + eps);
  for (int64_t i = threadIdx.x; i < HG; i += kThreads) {
    const float t = (z[i] - mean) * rstd * gamma[h0 + i] + beta[h0 + i];
    z[i] = t / (1.0f + expf(-t));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 6 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  const float* gamma = (const float*)call->tensors[3].data;
  const float* beta = (const float*)call->tensors[4].data;
  float* y = (float*)call->tensors[5].data;
  const int64_t B = call->params[0].i, K = call->params[1].i, G = call->params[2].i,
                HG = call->params[3].i;
  const float eps = (float)call->params[4].f;
  const int64_t H = G * HG;
  hipStream_t stream = (hipStream_t)call->stream;
  const int threads = 256;
  dim3 grid((unsigned)B, (unsigned)((H + threads - 1) / threads));
  linear<<<grid, threads, 0, stream>>>(x, w, b, y, B, K, H);
  groupnorm_swish<<<(unsigned)(B * G), kThreads, 0, stream>>>(gamma, beta, y, B, G, HG, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
