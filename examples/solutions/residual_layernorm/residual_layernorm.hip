// A faster residual_layernorm, general in M and N (any size) and in the warp size: one kernel,
// one pass over memory. PyTorch runs an add (read 2 rows, write h), a layer norm (read h, write
// its output) and a multiply (read, write): 5 reads and 3 writes of [M, N]. Here one block per
// row reads x and residual once, writes h and y once (2 reads, 2 writes), and keeps the row of h
// on chip between the statistics and the output:
//  * h goes to dynamic shared memory (rows up to kMaxShared floats); longer rows are read back
//    from the h the block just wrote (global memory, visible to the block after a barrier,
//    mostly from the cache);
//  * mean, then the variance around it (two passes over the on-chip row, as the reference);
//  * block sums are warp shuffles (offsets from warpSize, so any warp size) and one shared-memory
//    combine of the per-warp partials.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int64_t kMaxShared = 8192;  // floats of h kept in shared memory (32 KiB)

// Sum over the block; every thread gets the total. `red` holds at least kThreads / warpSize + 1.
__device__ float block_sum(float v, float* red) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_xor(v, off);
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  if (lane == 0) red[wid] = v;
  __syncthreads();
  float total = 0.0f;
  for (int i = 0; i < warps; ++i) total += red[i];
  __syncthreads();  // red is reused by the next call
  return total;
}

template <bool SHARED>
__global__ __launch_bounds__(kThreads) void residual_layernorm(
    const float* __restrict__ x, const float* __restrict__ residual,
    const float* __restrict__ weight, const float* __restrict__ bias, float* __restrict__ h,
    float* __restrict__ y, int64_t M, int64_t N, float eps, float alpha) {
  extern __shared__ float row[];  // N floats when SHARED
  __shared__ float red[kThreads];
  const int64_t r = blockIdx.x;
  if (r >= M) return;  // uniform across the block
  const int tid = threadIdx.x;
  const float* xr = x + r * N;
  const float* rr = residual + r * N;
  float* hr = h + r * N;
  float* yr = y + r * N;
  const float* src = SHARED ? row : hr;  // where the second and third passes read h

  float sum = 0.0f;
  for (int64_t k = tid; k < N; k += kThreads) {
    const float v = xr[k] + rr[k];
    hr[k] = v;
    if (SHARED) row[k] = v;
    sum += v;
  }
  const float mean = block_sum(sum, red) / (float)N;  // its barriers publish row[] and hr[]

  float sq = 0.0f;
  for (int64_t k = tid; k < N; k += kThreads) {
    const float d = src[k] - mean;
    sq += d * d;
  }
  const float rstd = 1.0f / sqrtf(block_sum(sq, red) / (float)N + eps);

  for (int64_t k = tid; k < N; k += kThreads)
    yr[k] = ((src[k] - mean) * rstd * weight[k] + bias[k]) * alpha;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 6 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* residual = (const float*)call->tensors[1].data;
  const float* weight = (const float*)call->tensors[2].data;
  const float* bias = (const float*)call->tensors[3].data;
  float* h = (float*)call->tensors[4].data;
  float* y = (float*)call->tensors[5].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float eps = (float)call->params[2].f, alpha = (float)call->params[3].f;
  hipStream_t stream = (hipStream_t)call->stream;
  if (N <= kMaxShared)
    residual_layernorm<true><<<(unsigned)M, kThreads, N * sizeof(float), stream>>>(
        x, residual, weight, bias, h, y, M, N, eps, alpha);
  else
    residual_layernorm<false>
        <<<(unsigned)M, kThreads, 0, stream>>>(x, residual, weight, bias, h, y, M, N, eps, alpha);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
