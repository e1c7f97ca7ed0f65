// Baseline for the ball_query task, as PointNet++ first wrote it: one thread per query (grid
// (ceil(M / 256), B), block 256), scanning the batch's points in index order straight from
// global memory. At the first point inside the ball it fills all S output slots with that
// index (the padding), then overwrites slot after slot with each later hit, and stops at S
// hits; an empty ball writes S zeros. Every thread streams the same points on its own, and a
// query with few neighbours scans all N.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void ball_query(const float* xyz, const float* query, int32_t* idx, int64_t b,
                           int64_t n, int64_t m, int64_t s, float radius) {
  const int64_t bat = blockIdx.y;
  const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= m) return;
  const float* pts = xyz + bat * n * 3;
  const float* qp = query + (bat * m + q) * 3;
  const float qx = qp[0], qy = qp[1], qz = qp[2];
  const float r2 = radius * radius;
  int32_t* out = idx + (bat * m + q) * s;
  int64_t cnt = 0;
  for (int64_t j = 0; j < n; ++j) {
    const float dx = pts[j * 3 + 0] - qx;
    const float dy = pts[j * 3 + 1] - qy;
    const float dz = pts[j * 3 + 2] - qz;
    if (dx * dx + dy * dy + dz * dz < r2) {
      if (cnt == 0)
        for (int64_t r = 0; r < s; ++r) out[r] = (int32_t)j;
      out[cnt++] = (int32_t)j;
      if (cnt == s) break;
    }
  }
  if (cnt == 0)
    for (int64_t r = 0; r < s; ++r) out[r] = 0;
}
