// Reference for the masked_softmax task: one thread per (batch, head, row). Over the visible keys
// pad[b] <= j <= i it finds the maximum of scale * x in double precision, sums the exponentials,
// and writes each probability rounded once to f32; every other element of the row, and every
// element of a row with no visible key, is 0.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void masked_softmax_ref(const float* __restrict__ x, const int* __restrict__ pad,
                                   float* __restrict__ y, int64_t nb, int64_t nh, int64_t s,
                                   int64_t d) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nb * nh * s) return;
  const int64_t i = r % s;
  const int64_t b = r / (nh * s);
  const int64_t lo = pad[b];
  const double scale = 1.0 / sqrt((double)d);
  const float* xr = x + r * s;
  float* yr = y + r * s;
  double m = -INFINITY;
  for (int64_t j = lo; j <= i; ++j) m = fmax(m, scale * (double)xr[j]);
  double l = 0.0;
  for (int64_t j = lo; j <= i; ++j) l += exp(scale * (double)xr[j] - m);
  for (int64_t j = 0; j < s; ++j)
    yr[j] = (j >= lo && j <= i) ? (float)(exp(scale * (double)xr[j] - m) / l) : 0.0f;
}
