// Baseline for the outer_product task: C += alpha * x y^T (a rank-1 update), one element at a
// time. Launched with grid (ceil_div(N, 64), ceil_div(M, 16)) and block (16, 16): each block
// covers a 16-row x 64-column tile of C, each thread one row of it (ty) and 4 columns strided
// by 16 (tx, tx + 16, tx + 32, tx + 48), so that a warp's accesses are 16 consecutive floats per
// row. alpha * x[i] is computed once per thread, y[j] read once per element.
#include <hip/hip_runtime.h>
#include <stdint.h>

constexpr int kCols = 64;  // columns per block
constexpr int kRows = 16;  // rows per block

__global__ void outer_product(const float* x, const float* y, float* c, int64_t m, int64_t n,
                              float alpha) {
  const int64_t row = (int64_t)blockIdx.y * kRows + threadIdx.y;
  if (row >= m) return;
  const float ax = alpha * x[row];
  for (int q = 0; q < kCols; q += blockDim.x) {
    const int64_t col = (int64_t)blockIdx.x * kCols + q + threadIdx.x;
    if (col < n) c[row * n + col] += ax * y[col];
  }
}
