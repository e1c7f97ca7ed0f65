// Reference for the permute4d task: one thread per output element of y [N, H, W, C]; the
// output's flat index is split into (n, s, c) with s = h * W + w the spatial position, and the
// value is read from x [N, C, H, W] at (n, c, s).
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void permute4d_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n,
                              int64_t c, int64_t h, int64_t w) {
  const int64_t hw = h * w;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * hw * c) return;
  const int64_t ch = i % c;
  const int64_t s = (i / c) % hw;
  const int64_t b = i / (c * hw);
  y[i] = x[(b * c + ch) * hw + s];
}
