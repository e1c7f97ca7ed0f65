// Starter for the rms_norm_bf16 task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row: each thread sums the squares of a strided slice
// of the row in f32, a shared-memory tree (a barrier per level) adds the partial sums, then the
// row is read again and written scaled by rsqrt(mean + eps) and the weight. bf16 values are read
// and written one at a time.
// Tensors (declaration order): x bf16[M, N], weight bf16[N], y bf16[M, N]; params M, N, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

// bf16 <-> f32 by bits (a bf16 is the top half of an f32; rounding to nearest even adds 0x7fff
// plus the lowest kept bit), so the file needs no bf16 header (not every HIP has hip_bf16.h).
__device__ inline float bf16_to_float(uint16_t b) { return __uint_as_float((uint32_t)b << 16); }
__device__ inline uint16_t float_to_bf16(float f) {
  const uint32_t u = __float_as_uint(f);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // finite values only
}

constexpr int kThreads = 256;

__global__ void rms_norm_bf16(const uint16_t* x, const uint16_t* weight,
                              uint16_t* y, int64_t M, int64_t N, float eps) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const int tid = threadIdx.x;
  const uint16_t* xr = x + row * N;
  uint16_t* yr = y + row * N;

  float sq = 0.0f;
  for (int64_t k = tid; k < N; k += kThreads) {
    const float v = bf16_to_float(xr[k]);
    sq += v * v;
  }
  red[tid] = sq;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float rms_inv = 1.0f / sqrtf(red[0] / (float)N + eps);

  for (int64_t k = tid; k < N; k += kThreads) {
    const float v = bf16_to_float(xr[k]) * rms_inv;
    yr[k] = float_to_bf16(v * bf16_to_float(weight[k]));
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const uint16_t* x = (const uint16_t*)call->tensors[0].data;
  const uint16_t* weight = (const uint16_t*)call->tensors[1].data;
  uint16_t* y = (uint16_t*)call->tensors[2].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  const float eps = (float)call->params[2].f;
  rms_norm_bf16<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, weight, y, M, N, eps);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
