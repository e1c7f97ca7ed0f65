// Reference for the knn task: one thread per query keeps the K smallest (distance, index) pairs
// seen so far in a sorted array, under the lexicographic order (by distance, equal distances by
// the smaller index), and inserts each reference point's pair where that order puts it. The
// comparison never relies on the order the points are visited in. Coordinates are integers, so
// every squared distance is an exact integer (computed in double here, stored as f32 without
// rounding).
#include <hip/hip_runtime.h>
#include <stdint.h>

constexpr int kMaxK = 64;

__device__ bool pair_less(double da, int64_t ja, double db, int64_t jb) {
  return da < db || (da == db && ja < jb);
}

__global__ void knn_ref(const float* __restrict__ xyz, const float* __restrict__ query,
                        int64_t* __restrict__ idx, float* __restrict__ dist2, int64_t b,
                        int64_t n, int64_t m, int64_t k) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // batch * m + query
  if (t >= b * m || k > kMaxK || k > n) return;  // never: the task keeps K <= 64 and K <= N
  const float* pts = xyz + (t / m) * n * 3;
  const double qx = query[t * 3 + 0], qy = query[t * 3 + 1], qz = query[t * 3 + 2];
  double best_d[kMaxK];
  int64_t best_j[kMaxK];
  int64_t count = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double dx = (double)pts[j * 3 + 0] - qx;
    const double dy = (double)pts[j * 3 + 1] - qy;
    const double dz = (double)pts[j * 3 + 2] - qz;
    const double d = dx * dx + dy * dy + dz * dz;
    if (count == k && !pair_less(d, j, best_d[k - 1], best_j[k - 1])) continue;
    int64_t pos = count < k ? count++ : k - 1;  // the last slot is free or dropped
    while (pos > 0 && pair_less(d, j, best_d[pos - 1], best_j[pos - 1])) {
      best_d[pos] = best_d[pos - 1];
      best_j[pos] = best_j[pos - 1];
      --pos;
    }
    best_d[pos] = d;
    best_j[pos] = j;
  }
  for (int64_t r = 0; r < k; ++r) {
    idx[t * k + r] = best_j[r];
    dist2[t * k + r] = (float)best_d[r];
  }
}
