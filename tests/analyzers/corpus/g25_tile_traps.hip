// Tiles and block offsets that equal a visible size (M = 128, K = 64) but are tiles: the
// shared buffer is indexed by the thread, not walked over a dimension, and the offset is the
// block's start in a flat index.
#include <hip/hip_runtime.h>

__global__ void block_sums(const float* x, float* sums, int n) {
  __shared__ float partial[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

__global__ void transpose_tiles(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[64][65];
  int c = blockIdx.x * 64 + threadIdx.x;
  int r = blockIdx.y * 64 + threadIdx.y;
  if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
  __syncthreads();
  int tc = blockIdx.y * 64 + threadIdx.x;
  int tr = blockIdx.x * 64 + threadIdx.y;
  if (tr < cols && tc < rows) out[(size_t)tr * rows + tc] = tile[threadIdx.x][threadIdx.y];
}
