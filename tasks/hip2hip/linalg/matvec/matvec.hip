// Baseline for the matvec task: y = A @ x, one block per row of A. Each thread accumulates the
// products of a strided slice of the row (elements tid, tid + 256, ...: coalesced) in f32, each
// warp combines its lanes with __shfl_down over warpSize lanes, the warp leaders meet in shared
// memory and the first warp combines them. One float loaded at a time, x re-read from global
// memory (the cache) by every row. Launched with grid M, block 256; works for any warp size and
// any blockDim.x that is a multiple of warpSize, up to 1024.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  return v;
}

__global__ void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k) {
  __shared__ float partial[32];  // one per warp: 1024 threads / warps of at least 32
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block
  const float* ar = a + row * k;
  const int tid = threadIdx.x;
  const int lane = tid % warpSize;
  const int warp = tid / warpSize;
  const int warps = blockDim.x / warpSize;

  float sum = 0.0f;
  for (int64_t j = tid; j < k; j += blockDim.x) sum += ar[j] * x[j];
  sum = warp_sum(sum);
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < warps ? partial[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) y[row] = sum;
  }
}
