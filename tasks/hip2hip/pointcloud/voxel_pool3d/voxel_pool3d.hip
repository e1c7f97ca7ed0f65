// Baseline for the voxel_pool3d task (launcher mode): three kernels. The first fills out with
// -inf; the second runs one thread per (point, channel), channel fastest so that the feature
// reads are coalesced, computes the point's voxel (integer division of the integer
// coordinates) and raises the voxel's value with a compare-and-swap loop on its 32-bit pattern;
// the third turns every voxel left at -inf into 0. out is channel-major ([C, D, H, W]), so the
// C updates of one point land C planes apart, and the whole grid is written twice more than the
// occupied voxels need.
// Tensors (declaration order): xyz f32[N, 3], feats f32[N, C], out f32[C, D, H, W];
// params: N, C, V, D, H, W.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__device__ void atomic_max_float(float* addr, float val) {
  unsigned int* bits = (unsigned int*)addr;
  unsigned int old = *(volatile unsigned int*)bits;  // a first guess; the swap checks it
  while (__uint_as_float(old) < val) {
    const unsigned int seen = atomicCAS(bits, old, __float_as_uint(val));
    if (seen == old) break;
    old = seen;
  }
}

__global__ void fill(float* out, int64_t total, float value) {
  const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e < total) out[e] = value;
}

__global__ void scatter_max(const float* xyz, const float* feats, float* out, int64_t n,
                            int64_t c, int64_t v, int64_t d, int64_t h, int64_t w) {
  const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // point * c + channel
  if (e >= n * c) return;
  const int64_t i = e / c, ch = e % c;
  const int64_t vx = (int64_t)xyz[i * 3 + 0] / v;  // the coordinates are non-negative integers
  const int64_t vy = (int64_t)xyz[i * 3 + 1] / v;
  const int64_t vz = (int64_t)xyz[i * 3 + 2] / v;
  if (vx >= w || vy >= h || vz >= d) return;  // outside the grid
  atomic_max_float(&out[((ch * d + vz) * h + vy) * w + vx], feats[e]);
}

__global__ void empty_to_zero(float* out, int64_t total) {
  const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e < total && out[e] == -INFINITY) out[e] = 0.0f;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 6)
    return 1;
  const float* xyz = (const float*)call->tensors[0].data;
  const float* feats = (const float*)call->tensors[1].data;
  float* out = (float*)call->tensors[2].data;
  const int64_t n = call->params[0].i, c = call->params[1].i, v = call->params[2].i;
  const int64_t d = call->params[3].i, h = call->params[4].i, w = call->params[5].i;
  if (v < 1) return 2;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t total = c * d * h * w;
  const unsigned grid_out = (unsigned)((total + kThreads - 1) / kThreads);
  fill<<<grid_out, kThreads, 0, stream>>>(out, total, -INFINITY);
  scatter_max<<<(unsigned)((n * c + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      xyz, feats, out, n, c, v, d, h, w);
  empty_to_zero<<<grid_out, kThreads, 0, stream>>>(out, total);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
