// A faster NCHW -> NHWC permute, general in N, C, H and W. Compared with the baseline:
//  * each block stages its (spatial x channel) tile in shared memory: reads of x stay coalesced
//    along H * W and the writes of y become coalesced too;
//  * the tile is stored in y's order (spatial-major, channel-minor, row stride cw or cw + 1,
//    always odd, so both the staging writes and the reads back are free of bank conflicts),
//    and the block writes its outputs as runs of cw consecutive floats: for C <= 32 (C = 3)
//    the whole 32 * C block output is one contiguous run, written by consecutive threads, so
//    no thread of the 32 x 8 block idles on a mostly empty 32 x 32 tile;
//  * 32-bit index math inside the tile, one 64-bit base offset per block.
// Launched as the baseline: grid (ceil_div(H * W, 32), ceil_div(C, 32), N), block (32, 8).
#include <hip/hip_runtime.h>
#include <stdint.h>

#define TILE 32

__global__ void permute4d(const float* x, float* y, int64_t n, int64_t c, int64_t h, int64_t w) {
  __shared__ float tile[TILE * (TILE + 1)];
  const int64_t hw = h * w;
  const int64_t b = blockIdx.z;
  const int64_t s0 = (int64_t)blockIdx.x * TILE;
  const int64_t c0 = (int64_t)blockIdx.y * TILE;
  if (b >= n || s0 >= hw || c0 >= c) return;
  const int sw = hw - s0 < TILE ? (int)(hw - s0) : TILE;  // valid spatial positions
  const int cw = c - c0 < TILE ? (int)(c - c0) : TILE;    // valid channels
  const int ld = cw | 1;                                  // odd row stride of the tile
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int nt = blockDim.x * blockDim.y;
  const int count = sw * cw;

  // Stage: element e = (channel e / 32, spatial e % 32); consecutive threads read consecutive
  // spatial positions of one channel row of x.
  const float* xs = x + (b * c + c0) * hw + s0;
  for (int e = tid; e < TILE * cw; e += nt) {
    const int ch = e >> 5;
    const int s = e & (TILE - 1);
    if (s < sw) tile[s * ld + ch] = xs[(int64_t)ch * hw + s];
  }
  __syncthreads();

  // Write: element j = (spatial j / cw, channel j % cw); each spatial position's cw channels
  // are consecutive in y, and for cw == c the whole block output is one contiguous run.
  float* ys = y + (b * hw + s0) * c + c0;
  if (cw == TILE) {  // full channel tile (C >= 32): shifts instead of a division
    for (int j = tid; j < count; j += nt) {
      const int s = j >> 5;
      const int ch = j & (TILE - 1);
      ys[(int64_t)s * c + ch] = tile[s * ld + ch];
    }
  } else if (cw == c) {  // C < 32: the block output is one contiguous run
    for (int j = tid; j < count; j += nt) {
      const int s = j / cw;
      ys[j] = tile[s * ld + (j - s * cw)];
    }
  } else {  // the last, partial channel tile of C > 32
    for (int j = tid; j < count; j += nt) {
      const int s = j / cw;
      const int ch = j - s * cw;
      ys[(int64_t)s * c + ch] = tile[s * ld + ch];
    }
  }
}
