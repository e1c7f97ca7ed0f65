// Baseline for the reduce_sum task: one block per row. Each thread sums a strided slice in f32,
// each warp combines its lanes with __shfl_down, warp leaders meet in shared memory and the first
// warp combines them. Launched with grid m, block 256; works for any warp size and any
// blockDim.x that is a multiple of warpSize, up to 1024.
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  return v;
}

__global__ void reduce_sum(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float partial[32];  // one per warp: 1024 threads / warps of at least 32
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block
  const float* xr = x + row * n;
  const int tid = threadIdx.x;
  const int lane = tid % warpSize;
  const int warp = tid / warpSize;
  const int warps = blockDim.x / warpSize;

  float sum = 0.0f;
  for (int64_t k = tid; k < n; k += blockDim.x) sum += xr[k];
  sum = warp_sum(sum);
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < warps ? partial[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) y[row] = sum;
  }
}
