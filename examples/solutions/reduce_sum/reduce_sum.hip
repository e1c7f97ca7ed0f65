// A "tuned" row sum that overfits the visible shapes. Two changes against the baseline:
//  * the warp-shuffle combine is replaced by two short serial levels through shared memory
//    (2 barriers per row, no shuffle rounds) - a legitimate improvement;
//  * every visible row length is a multiple of 1024, so the row is walked in fixed chunks of
//    1024 floats (256 threads x float4) and the remainder is never looked at - the overfit.
// It passes every visible shape and is wrong for a row length that is not a multiple of 1024:
// the tail is dropped, and a row shorter than 1024 sums to 0. Kept as an example of what kta's
// held-out shapes and shape audit exist to catch.
#include <hip/hip_runtime.h>
#include <stdint.h>

#define CHUNK 1024
#define FAN 16

__global__ void reduce_sum(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float partial[1024];
  __shared__ float group[1024 / FAN];
  const int64_t row = blockIdx.x;
  if (row >= m) return;
  const float4* xr = reinterpret_cast<const float4*>(x + row * n);
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float sum = 0.0f;
  for (int64_t c = 0; c < n / CHUNK; ++c) {
    const float4 v = xr[c * (CHUNK / 4) + tid];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  partial[tid] = sum;
  __syncthreads();
  const int groups = (nt + FAN - 1) / FAN;
  if (tid < groups) {
    float g = 0.0f;
    for (int i = tid * FAN; i < tid * FAN + FAN && i < nt; ++i) g += partial[i];
    group[tid] = g;
  }
  __syncthreads();
  if (tid == 0) {
    float t = 0.0f;
    for (int i = 0; i < groups; ++i) t += group[i];
    y[row] = t;
  }
}
