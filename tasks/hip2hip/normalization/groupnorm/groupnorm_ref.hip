// Reference for the groupnorm task: one thread per (sample, group), two-pass mean and variance
// of the group in double precision, then the normalization and per-channel affine map in
// double, each output rounded once to f32.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void groupnorm_ref(const float* __restrict__ x, const float* __restrict__ weight,
                              const float* __restrict__ bias, float* __restrict__ y, int64_t n,
                              int64_t c, int64_t h, int64_t w, int64_t g, float eps) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * g) return;
  const int64_t cpg = c / g;     // channels per group
  const int64_t hw = h * w;
  const int64_t len = cpg * hw;  // a group's channels are consecutive, so its values are too
  const int64_t base = t * len;  // = (t / g) * c * hw + (t % g) * cpg * hw
  const int64_t c0 = (t % g) * cpg;
  double mean = 0.0;
  for (int64_t i = 0; i < len; ++i) mean += x[base + i];
  mean /= (double)len;
  double var = 0.0;
  for (int64_t i = 0; i < len; ++i) {
    const double d = (double)x[base + i] - mean;
    var += d * d;
  }
  var /= (double)len;
  const double rstd = 1.0 / sqrt(var + (double)eps);
  for (int64_t i = 0; i < len; ++i) {
    const int64_t ch = c0 + i / hw;
    const double v = ((double)x[base + i] - mean) * rstd;
    y[base + i] = (float)(v * (double)weight[ch] + (double)bias[ch]);
  }
}
