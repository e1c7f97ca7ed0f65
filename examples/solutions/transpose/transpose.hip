// A faster transpose, general in M and N. Compared with the baseline:
//  * the 32 x 32 tile is staged in shared memory, so both the reads of x and the writes of y
//    are coalesced (the baseline writes y with a stride of M floats, one cache line per
//    element); the tile rows are padded to 33 floats so that reading a column of the tile
//    hits 32 different banks;
//  * index math is 32-bit inside the tile, with one 64-bit base offset per block.
// Launched as the baseline: grid (ceil_div(N, 32), ceil_div(M, 32)), block (32, 8).
#include <hip/hip_runtime.h>
#include <stdint.h>

#define TILE 32

__global__ void transpose(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float tile[TILE][TILE + 1];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int ny = blockDim.y;
  const int64_t r0 = (int64_t)blockIdx.y * TILE;
  const int64_t c0 = (int64_t)blockIdx.x * TILE;
  const int rows = m - r0 < TILE ? (int)(m - r0) : TILE;  // valid rows of x in this tile
  const int cols = n - c0 < TILE ? (int)(n - c0) : TILE;  // valid columns of x in this tile

  // Coalesced read of x: thread (tx, ty) reads column tx of rows ty, ty + 8, ...
  const float* xs = x + r0 * n + c0;
  if (tx < cols)
    for (int r = ty; r < rows; r += ny) tile[r][tx] = xs[(int64_t)r * n + tx];
  __syncthreads();

  // Coalesced write of y: row c of y (column c of x) gets the tile's column c, tx along M.
  float* ys = y + c0 * m + r0;
  if (tx < rows)
    for (int c = ty; c < cols; c += ny) ys[(int64_t)c * m + tx] = tile[tx][c];
}
