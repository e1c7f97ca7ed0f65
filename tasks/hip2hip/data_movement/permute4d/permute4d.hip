// Baseline for the permute4d task: NCHW -> NHWC, y[n, s, c] = x[n, c, s] with s = h * W + w.
// Launched with grid (ceil_div(H * W, 32), ceil_div(C, 32), N) and block (32, 8): each block
// covers a 32 x 32 tile of (spatial, channel) positions of one sample, and thread (tx, ty)
// copies spatial position tx for channels ty, ty + 8, ty + 16, ty + 24. Reads of x are coalesced
// along s; writes to y go straight out, C floats apart between neighbouring threads, which is
// what staging the tile in shared memory would fix.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void permute4d(const float* x, float* y, int64_t n, int64_t c, int64_t h, int64_t w) {
  const int tile = 32;
  const int64_t hw = h * w;
  const int64_t b = blockIdx.z;
  const int64_t s = (int64_t)blockIdx.x * tile + threadIdx.x;
  const int64_t c0 = (int64_t)blockIdx.y * tile + threadIdx.y;
  if (b >= n || s >= hw) return;
  const float* xb = x + b * c * hw;
  float* yb = y + b * hw * c;
  for (int64_t ch = c0; ch < c0 + tile && ch < c; ch += blockDim.y) yb[s * c + ch] = xb[ch * hw + s];
}
