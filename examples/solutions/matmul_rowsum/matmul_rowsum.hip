// A faster matmul_rowsum, general in B, K and H (any size) and in the warp size. The sum over the
// output features commutes with the GEMM:
//   y[r] = sum_h (x[r, :] . w[h, :] + b[h]) = x[r, :] . wsum + bsum,
//   wsum[k] = sum_h w[h, k],  bsum = sum_h b[h],
// so the [B, H] GEMM (2 B K H flops) becomes a column sum of w (H K adds, one read of w) and a
// GEMV (2 B K flops). Three small kernels, no atomics (the result is deterministic):
//  1. partial column sums: block (kx, c) sums rows [c HC, (c + 1) HC) of w for 256 consecutive
//     columns (coalesced reads along k), into partial[c, k]; C chunks give the GPU enough blocks;
//  2. wsum[k] = sum_c partial[c, k]; one extra block sums b into bsum;
//  3. one block per row r: y[r] = x[r, :] . wsum + bsum (warp shuffles from warpSize, then one
//     shared-memory combine).
// The terms are summed in another order than PyTorch's GEMM-then-sum; the task's tolerance
// allows any f32 order (the error is ~u H either way).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ __launch_bounds__(kThreads) void column_partials(const float* __restrict__ w,
                                                            float* __restrict__ partial, int64_t K,
                                                            int64_t H, int64_t HC) {
  const int64_t k = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (k >= K) return;
  const int64_t c = blockIdx.y;
  const int64_t h0 = c * HC;
  const int64_t h1 = h0 + HC < H ? h0 + HC : H;
  float s = 0.0f;
  for (int64_t h = h0; h < h1; ++h) s += w[h * K + k];
  partial[c * K + k] = s;
}

// Sum over the block; every thread gets the total. `red` holds at least kThreads / warpSize.
__device__ float block_sum(float v, float* red) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_xor(v, off);
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  if (lane == 0) red[wid] = v;
  __syncthreads();
  float total = 0.0f;
  for (int i = 0; i < warps; ++i) total += red[i];
  __syncthreads();
  return total;
}

// Blocks 0 .. kb-1: wsum[k] = sum_c partial[c, k]. Block kb: bsum = sum_h b[h] (wsum[K]).
__global__ __launch_bounds__(kThreads) void finish_sums(const float* __restrict__ partial,
                                                        const float* __restrict__ b,
                                                        float* __restrict__ wsum, int64_t K,
                                                        int64_t H, int64_t C) {
  __shared__ float red[kThreads];
  if (blockIdx.x == gridDim.x - 1) {  // uniform across the block
    float s = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += kThreads) s += b[h];
    s = block_sum(s, red);
    if (threadIdx.x == 0) wsum[K] = s;
    return;
  }
  const int64_t k = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  if (k >= K) return;
  float s = 0.0f;
  for (int64_t c = 0; c < C; ++c) s += partial[c * K + k];
  wsum[k] = s;
}

__global__ __launch_bounds__(kThreads) void row_dot(const float* __restrict__ x,
                                                    const float* __restrict__ wsum,
                                                    float* __restrict__ y, int64_t B, int64_t K) {
  __shared__ float red[kThreads];
  const int64_t r = blockIdx.x;
  if (r >= B) return;  // uniform across the block
  const float* xr = x + r * K;
  float s = 0.0f;
  for (int64_t k = threadIdx.x; k < K; k += kThreads) s += xr[k] * wsum[k];
  s = block_sum(s, red);
  if (threadIdx.x == 0) y[r] = s + wsum[K];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, K = call->params[1].i, H = call->params[2].i;
  hipStream_t stream = (hipStream_t)call->stream;
  // C chunks of HC rows of w each: ~16 rows per thread, at most 256 chunks (grid y).
  int64_t C = (H + 15) / 16;
  if (C > 256) C = 256;
  const int64_t HC = (H + C - 1) / C;
  C = (H + HC - 1) / HC;  // every chunk non-empty
  const int64_t kb = (K + kThreads - 1) / kThreads;
  float* scratch = nullptr;  // partial[C, K], then wsum[K] and bsum
  if (hipMalloc(&scratch, (size_t)(C * K + K + 1) * sizeof(float)) != hipSuccess) return 3;
  float* partial = scratch;
  float* wsum = scratch + C * K;
  column_partials<<<dim3((unsigned)kb, (unsigned)C), kThreads, 0, stream>>>(w, partial, K, H, HC);
  finish_sums<<<(unsigned)(kb + 1), kThreads, 0, stream>>>(partial, b, wsum, K, H, C);
  row_dot<<<(unsigned)B, kThreads, 0, stream>>>(x, wsum, y, B, K);
  const bool ok = hipGetLastError() == hipSuccess;
  // hipFree waits for the kernels that use the scratch buffer to finish.
  if (hipFree(scratch) != hipSuccess) return 3;
  return ok ? 0 : 2;
}
