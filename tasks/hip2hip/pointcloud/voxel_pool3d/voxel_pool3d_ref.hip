// Reference for the voxel_pool3d task: a single thread, so no two writes ever race and no
// atomics are needed. It fills the output with -inf, walks the points in order and, for each
// point inside the grid, takes the max of each of its features into the point's voxel of that
// channel's plane, then turns every element still at -inf (no point: the features are finite)
// into 0. The voxel of a coordinate is floor(coordinate / V), exact in double for these integer
// coordinates.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void voxel_pool3d_ref(const float* __restrict__ xyz, const float* __restrict__ feats,
                                 float* __restrict__ out, int64_t n, int64_t c, int64_t v,
                                 int64_t d, int64_t h, int64_t w) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const int64_t cells = d * h * w;  // one channel's plane
  for (int64_t e = 0; e < c * cells; ++e) out[e] = -INFINITY;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t vx = (int64_t)floor((double)xyz[i * 3 + 0] / (double)v);
    const int64_t vy = (int64_t)floor((double)xyz[i * 3 + 1] / (double)v);
    const int64_t vz = (int64_t)floor((double)xyz[i * 3 + 2] / (double)v);
    if (vx < 0 || vx >= w || vy < 0 || vy >= h || vz < 0 || vz >= d) continue;
    const int64_t cell = (vz * h + vy) * w + vx;
    for (int64_t ch = 0; ch < c; ++ch) {
      const float f = feats[i * c + ch];
      if (f > out[ch * cells + cell]) out[ch * cells + cell] = f;
    }
  }
  for (int64_t e = 0; e < c * cells; ++e)
    if (out[e] == -INFINITY) out[e] = 0.0f;
}
