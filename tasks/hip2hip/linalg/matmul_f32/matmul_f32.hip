// Baseline for the matmul_f32 task (launcher mode): C = A @ B for square f32 matrices of size n.
// One block of 32 x 8 threads per 32 x 32 tile of C; each thread computes 4 outputs of one
// column of the tile (rows ty, ty + 8, ty + 16, ty + 24). The K dimension is walked in steps of
// 32: the block stages a 32 x 32 tile of A and of B in shared memory (each thread loads 4
// elements of each, coalesced along rows, zero-filled past the edges), synchronizes, and
// accumulates 32 products per output in f32 registers from shared memory. The A tile is padded
// by one column so that the reads down a column of it do not conflict.
// Tensors (declaration order): A f32[N, N], B f32[N, N], C f32[N, N]; params: N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kTile = 32;  // C tile and K step
constexpr int kRows = 8;   // threadIdx.y extent: each thread covers kTile / kRows rows

__global__ void matmul_f32(const float* a, const float* b, float* c, int64_t n) {
  __shared__ float as[kTile][kTile + 1];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row0 = (int64_t)blockIdx.y * kTile;
  const int64_t col = (int64_t)blockIdx.x * kTile + tx;
  float acc[kTile / kRows] = {0.0f, 0.0f, 0.0f, 0.0f};

  for (int64_t k0 = 0; k0 < n; k0 += kTile) {
    for (int r = ty; r < kTile; r += kRows) {
      const int64_t ar = row0 + r, ac = k0 + tx;
      as[r][tx] = (ar < n && ac < n) ? a[ar * n + ac] : 0.0f;
      const int64_t br = k0 + r;
      bs[r][tx] = (br < n && col < n) ? b[br * n + col] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) {
      const float bv = bs[k][tx];
      for (int r = 0; r < kTile / kRows; ++r) acc[r] += as[ty + r * kRows][k] * bv;
    }
    __syncthreads();
  }
  for (int r = 0; r < kTile / kRows; ++r) {
    const int64_t row = row0 + ty + r * kRows;
    if (row < n && col < n) c[row * n + col] = acc[r];
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 1)
    return 1;
  const float* a = (const float*)call->tensors[0].data;
  const float* b = (const float*)call->tensors[1].data;
  float* c = (float*)call->tensors[2].data;
  const int64_t n = call->params[0].i;
  const unsigned tiles = (unsigned)((n + kTile - 1) / kTile);
  matmul_f32<<<dim3(tiles, tiles), dim3(kTile, kRows), 0, (hipStream_t)call->stream>>>(a, b, c, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
