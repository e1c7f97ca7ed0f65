// Baseline for the furthest_point_sampling task (launcher mode), the way mmcv and PointNet++ run
// it: one block of 256 threads per batch. mind2 serves as the running distance array in global
// memory. Each round, every thread updates the entries of a strided slice of the points against
// the last sample (re-reading the points and the array from global memory) and keeps its slice's
// largest entry, first index on ties; the block then combines the 256 (value, index) pairs in a
// shared-memory tree with a __syncthreads per level, an equal value keeping the smaller index.
// Only B blocks run, and each round pays ~10 barriers. One more update after the last round
// leaves every point's distance to its nearest sample in mind2.
// Tensors (declaration order): xyz f32[B, N, 3], idx i32[B, P], mind2 f32[B, N];
// params: B, N, P.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;  // a power of two, for the tree

__global__ void furthest_point_sampling(const float* xyz, int32_t* idx, float* mind2, int64_t n,
                                        int64_t p) {
  __shared__ float best_val[kThreads];
  __shared__ int32_t best_idx[kThreads];
  const int64_t bat = blockIdx.x;
  const int tid = threadIdx.x;
  const float* pts = xyz + bat * n * 3;
  float* dist = mind2 + bat * n;
  for (int64_t j = tid; j < n; j += kThreads) dist[j] = INFINITY;
  int32_t last = 0;
  for (int64_t s = 0; s < p; ++s) {
    if (tid == 0) idx[bat * p + s] = last;
    const float lx = pts[last * 3 + 0], ly = pts[last * 3 + 1], lz = pts[last * 3 + 2];
    float bv = -1.0f;  // below every distance
    int32_t bi = 0;
    for (int64_t j = tid; j < n; j += kThreads) {
      const float dx = pts[j * 3 + 0] - lx;
      const float dy = pts[j * 3 + 1] - ly;
      const float dz = pts[j * 3 + 2] - lz;
      const float d = fminf(dist[j], dx * dx + dy * dy + dz * dz);
      dist[j] = d;
      if (d > bv) {
        bv = d;
        bi = (int32_t)j;
      }
    }
    if (s + 1 == p) break;  // the last update is done; no further sample is chosen
    best_val[tid] = bv;
    best_idx[tid] = bi;
    __syncthreads();
    for (int w = kThreads / 2; w > 0; w >>= 1) {
      if (tid < w) {
        const float ov = best_val[tid + w];
        const int32_t oi = best_idx[tid + w];
        if (ov > best_val[tid] || (ov == best_val[tid] && oi < best_idx[tid])) {
          best_val[tid] = ov;
          best_idx[tid] = oi;
        }
      }
      __syncthreads();
    }
    last = best_idx[0];
    __syncthreads();  // everyone has read the winner before the next round overwrites it
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const float* xyz = (const float*)call->tensors[0].data;
  int32_t* idx = (int32_t*)call->tensors[1].data;
  float* mind2 = (float*)call->tensors[2].data;
  const int64_t b = call->params[0].i, n = call->params[1].i, p = call->params[2].i;
  if (p < 1 || p > n) return 2;
  furthest_point_sampling<<<(unsigned)b, kThreads, 0, (hipStream_t)call->stream>>>(xyz, idx,
                                                                                   mind2, n, p);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
