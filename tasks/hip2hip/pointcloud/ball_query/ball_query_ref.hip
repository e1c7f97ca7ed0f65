// Reference for the ball_query task: one thread per query. It scans the batch's points in index
// order, writes the index of each point strictly inside the ball to the next output slot and
// stops once S are written; the slots left over are then filled with the first index found, or
// with 0 when the ball is empty. Coordinates are integers and the squared radius is not, so the
// comparison in double is the same as in any f32 evaluation.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void ball_query_ref(const float* __restrict__ xyz, const float* __restrict__ query,
                               int32_t* __restrict__ idx, int64_t b, int64_t n, int64_t m,
                               int64_t s, float radius) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // batch * m + query
  if (t >= b * m) return;
  const float* pts = xyz + (t / m) * n * 3;
  const double qx = query[t * 3 + 0], qy = query[t * 3 + 1], qz = query[t * 3 + 2];
  const double r2 = (double)radius * (double)radius;
  int32_t* out = idx + t * s;
  int64_t found = 0;
  for (int64_t j = 0; j < n && found < s; ++j) {
    const double dx = (double)pts[j * 3 + 0] - qx;
    const double dy = (double)pts[j * 3 + 1] - qy;
    const double dz = (double)pts[j * 3 + 2] - qz;
    if (dx * dx + dy * dy + dz * dz < r2) out[found++] = (int32_t)j;
  }
  const int32_t pad = found > 0 ? out[0] : 0;
  for (int64_t r = found; r < s; ++r) out[r] = pad;
}
