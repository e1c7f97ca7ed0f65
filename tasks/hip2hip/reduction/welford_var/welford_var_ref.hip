// Reference for the welford_var task: one thread per row, two-pass mean and population variance
// in double precision, each rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void welford_var_ref(const float* __restrict__ x, float* __restrict__ mean,
                                float* __restrict__ var, int64_t m, int64_t n) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* xr = x + row * n;
  double mu = 0.0;
  for (int64_t k = 0; k < n; ++k) mu += xr[k];
  mu /= (double)n;
  double sq = 0.0;
  for (int64_t k = 0; k < n; ++k) sq += ((double)xr[k] - mu) * ((double)xr[k] - mu);
  mean[row] = (float)mu;
  var[row] = (float)(sq / (double)n);
}
