#include <hip/hip_runtime.h>

// Row sums, one block per row, through warp shuffles and dynamic shared memory. warp_sum is the
// classic full-width xor reduction: with a block that leaves the last warp partial (96 threads
// at warp size 64) it reads lanes that do not exist, which hardware answers with 0 on AMD and an
// undefined value on NVIDIA.
__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

__global__ void row_sum_xor(const float* x, float* out, int cols) {
  extern __shared__ float warp_sums[];
  const float* row = x + (long)blockIdx.x * cols;
  float v = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) v += row[c];
  v = warp_sum(v);
  int warps = (blockDim.x + warpSize - 1) / warpSize;
  if (threadIdx.x % warpSize == 0) warp_sums[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < warps; ++w) s += warp_sums[w];
    out[blockIdx.x] = s;
  }
}

// The same sums in 16-lane segments (width shuffles) staged through dynamic shared memory:
// correct for any block that is a multiple of 16, whatever the warp size.
__global__ void row_sum_segments(const float* x, float* out, int cols) {
  extern __shared__ float segment_sums[];
  const float* row = x + (long)blockIdx.x * cols;
  float v = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) v += row[c];
  for (int o = 8; o > 0; o >>= 1) v += __shfl_down(v, o, 16);
  if (threadIdx.x % 16 == 0) segment_sums[threadIdx.x / 16] = v;
  __syncthreads();
  for (int n = blockDim.x / 16; n > 1; n = (n + 1) / 2) {
    int half = (n + 1) / 2;
    float mine = 0, other = 0;
    if ((int)threadIdx.x < n / 2) {
      mine = segment_sums[threadIdx.x];
      other = segment_sums[threadIdx.x + half];
    }
    __syncthreads();
    if ((int)threadIdx.x < n / 2) segment_sums[threadIdx.x] = mine + other;
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = segment_sums[0];
}
