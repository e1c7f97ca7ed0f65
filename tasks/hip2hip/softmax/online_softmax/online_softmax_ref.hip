// Reference for the online_softmax task: one thread per row, everything in double precision: the
// row maximum, the sum of exp(x - max), then each exp(x - max) / sum, rounded once to f32.
// Three passes over a long row by one thread: slow, but obviously correct.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void online_softmax_ref(const float* __restrict__ x, float* __restrict__ y, int64_t m,
                                   int64_t n) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* xr = x + row * n;
  float* yr = y + row * n;
  double mx = -INFINITY;
  for (int64_t k = 0; k < n; ++k) mx = fmax(mx, (double)xr[k]);
  double sum = 0.0;
  for (int64_t k = 0; k < n; ++k) sum += exp((double)xr[k] - mx);
  for (int64_t k = 0; k < n; ++k) yr[k] = (float)(exp((double)xr[k] - mx) / sum);
}
