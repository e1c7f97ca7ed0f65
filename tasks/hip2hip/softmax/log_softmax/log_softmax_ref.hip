// Reference for the log_softmax task: one thread per row, everything in double precision: the
// row maximum, the sum of exp(x - max), then y = (x - max) - log(sum), rounded once to f32.
// Slow on a GPU (uncoalesced, one thread per row) but obviously correct.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void log_softmax_ref(const float* __restrict__ x, float* __restrict__ y, int64_t m,
                                int64_t n) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* xr = x + row * n;
  float* yr = y + row * n;
  double mx = -INFINITY;
  for (int64_t k = 0; k < n; ++k) mx = fmax(mx, (double)xr[k]);
  double sum = 0.0;
  for (int64_t k = 0; k < n; ++k) sum += exp((double)xr[k] - mx);
  const double lse = log(sum);
  for (int64_t k = 0; k < n; ++k) yr[k] = (float)(((double)xr[k] - mx) - lse);
}
