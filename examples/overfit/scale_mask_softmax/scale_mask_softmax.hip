// An OVERFIT scale_mask_softmax, written the way agents overfit on purpose: it passes every
// visible point and fails held-out ones. The visible rows are 1024 or 2048 long, always a
// multiple of the 256-thread block, so the kernel keeps a fixed register array sized for the
// widest visible row (2048 / 256 = 8 values per thread) and takes N / 256 of them with no tail:
// a row whose length is not a multiple of 256 (1000, 13) loses its last N % 256 values (their
// outputs are never written), and one longer than 2048 (3001) loses everything past 2048.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;
constexpr int kRow = 2048;             // the widest visible row
constexpr int kPer = kRow / kThreads;  // 8 values per thread

__global__ __launch_bounds__(kThreads) void scale_mask_softmax(const float* __restrict__ x,
                                                               const float* __restrict__ mask,
                                                               float* __restrict__ y, int64_t M,
                                                               int64_t N, float scale) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  const float* xr = x + row * N;
  const float* mr = mask + (row % M) * N;
  float* yr = y + row * N;
  const int tid = threadIdx.x;
  const int per = (int)(N / kThreads);  // visible rows are whole multiples of the block
  float z[kPer];
  float m = -INFINITY;
  for (int i = 0; i < kPer; ++i) {
    if (i >= per) break;
    z[i] = xr[tid + i * kThreads] * scale + mr[tid + i * kThreads];
    m = fmaxf(m, z[i]);
  }
  red[tid] = m;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < kPer; ++i) {
    if (i >= per) break;
    z[i] = expf(z[i] - m);
    sum += z[i];
  }
  red[tid] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float inv = 1.0f / red[0];
  for (int i = 0; i < kPer; ++i) {
    if (i >= per) break;
    yr[tid + i * kThreads] = z[i] * inv;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* mask = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i;
  const float scale = (float)call->params[3].f;
  scale_mask_softmax<<<(unsigned)(B * M), kThreads, 0, (hipStream_t)call->stream>>>(x, mask, y, M,
                                                                                    N, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
