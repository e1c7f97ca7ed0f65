// Reference for the furthest_point_sampling task: one thread per batch runs the definition
// sequentially. mind2 (an output) doubles as the running distance array: it starts at +inf and,
// after each new sample, every point's entry becomes the smaller of itself and its squared
// distance to that sample; the next sample is the first index of the largest entry (a later
// equal entry does not replace it). After the last sample one more update leaves, in mind2, each
// point's squared distance to the nearest sample. Coordinates are integers, so the distances are
// exact integers (computed in double, stored in f32 without rounding).
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void furthest_point_sampling_ref(const float* __restrict__ xyz,
                                            int32_t* __restrict__ idx,
                                            float* __restrict__ mind2, int64_t b, int64_t n,
                                            int64_t p) {
  const int64_t bat = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (bat >= b) return;
  const float* pts = xyz + bat * n * 3;
  float* dist = mind2 + bat * n;
  int32_t* out = idx + bat * p;
  for (int64_t j = 0; j < n; ++j) dist[j] = INFINITY;
  int64_t last = 0;
  for (int64_t s = 0; s < p; ++s) {
    out[s] = (int32_t)last;
    const double lx = pts[last * 3 + 0], ly = pts[last * 3 + 1], lz = pts[last * 3 + 2];
    int64_t best = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double dx = (double)pts[j * 3 + 0] - lx;
      const double dy = (double)pts[j * 3 + 1] - ly;
      const double dz = (double)pts[j * 3 + 2] - lz;
      const double d = dx * dx + dy * dy + dz * dz;
      if (d < (double)dist[j]) dist[j] = (float)d;  // exact: d is an integer below 2^18
      if (dist[j] > dist[best]) best = j;
    }
    last = best;  // the next sample (unused after the last round)
  }
}
