// Baseline for the knn task (launcher mode): one thread per query, blocks of 256 queries of one
// batch (grid (ceil(M / 256), B)). The block walks the batch's reference points in tiles of 256
// staged in shared memory; each thread keeps its K best (distance, index) pairs sorted in a
// per-thread array (local memory, since it is indexed dynamically) and inserts a point only when
// it beats the current K-th distance. Points arrive in increasing index order and an equal
// distance never moves ahead of an earlier one, so ties go to the smaller index.
// Tensors (declaration order): xyz f32[B, N, 3], query f32[B, M, 3], idx i64[B, M, K],
// dist2 f32[B, M, K]; params: B, N, M, K. Needs K <= kMaxK.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;  // queries per block, and reference points per tile
constexpr int kMaxK = 64;

__global__ void knn(const float* xyz, const float* query, int64_t* idx, float* dist2, int64_t n,
                    int64_t m, int k) {
  __shared__ float tile[kThreads * 3];
  const int64_t bat = blockIdx.y;
  const int64_t q = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  const bool active = q < m;  // inactive threads still load tiles and meet the barriers
  const float* pts = xyz + bat * n * 3;
  float qx = 0.0f, qy = 0.0f, qz = 0.0f;
  if (active) {
    const float* qp = query + (bat * m + q) * 3;
    qx = qp[0];
    qy = qp[1];
    qz = qp[2];
  }
  float best_d[kMaxK];
  int best_i[kMaxK];
  int count = 0;
  for (int64_t base = 0; base < n; base += kThreads) {
    const int64_t tn = n - base < kThreads ? n - base : kThreads;
    for (int64_t e = threadIdx.x; e < tn * 3; e += kThreads) tile[e] = pts[base * 3 + e];
    __syncthreads();
    if (active) {
      for (int j = 0; j < (int)tn; ++j) {
        const float dx = tile[j * 3 + 0] - qx;
        const float dy = tile[j * 3 + 1] - qy;
        const float dz = tile[j * 3 + 2] - qz;
        const float d = dx * dx + dy * dy + dz * dz;
        if (count == k && d >= best_d[k - 1]) continue;  // an equal distance loses: larger index
        int pos = count < k ? count++ : k - 1;
        while (pos > 0 && best_d[pos - 1] > d) {
          best_d[pos] = best_d[pos - 1];
          best_i[pos] = best_i[pos - 1];
          --pos;
        }
        best_d[pos] = d;
        best_i[pos] = (int)(base + j);
      }
    }
    __syncthreads();  // the tile is overwritten next
  }
  if (active) {
    const int64_t o = (bat * m + q) * k;
    for (int r = 0; r < k; ++r) {
      idx[o + r] = best_i[r];
      dist2[o + r] = best_d[r];
    }
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const float* xyz = (const float*)call->tensors[0].data;
  const float* query = (const float*)call->tensors[1].data;
  int64_t* idx = (int64_t*)call->tensors[2].data;
  float* dist2 = (float*)call->tensors[3].data;
  const int64_t b = call->params[0].i, n = call->params[1].i;
  const int64_t m = call->params[2].i, k = call->params[3].i;
  if (k < 1 || k > kMaxK || k > n) return 2;
  const dim3 grid((unsigned)((m + kThreads - 1) / kThreads), (unsigned)b);
  knn<<<grid, kThreads, 0, (hipStream_t)call->stream>>>(xyz, query, idx, dist2, n, m, (int)k);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
