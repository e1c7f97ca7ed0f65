// Starter for the max_dim task: a direct HIP translation, correct for every size and
// unoptimized. One block of 256 threads per row: each thread scans a strided slice of the row
// keeping its maximum and the first index of it (a strictly greater value replaces it), then the
// block combines the (value, index) pairs with a shared-memory tree (a barrier per level),
// keeping the smaller index on equal values.
// Tensors (declaration order): x f32[M, N], values f32[M], indices i64[M]; params M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void max_dim(const float* x, float* values, int64_t* indices, int64_t M, int64_t N) {
  __shared__ float best_v[kThreads];
  __shared__ int64_t best_i[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= M) return;  // uniform across the block
  const int tid = threadIdx.x;
  const float* xr = x + row * N;
  float v = -INFINITY;
  int64_t idx = N;  // no element yet: loses every comparison below
  for (int64_t k = tid; k < N; k += kThreads) {
    if (xr[k] > v || idx == N) {
      v = xr[k];
      idx = k;
    }
  }
  best_v[tid] = v;
  best_i[tid] = idx;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) {
      const float ov = best_v[tid + s];
      const int64_t oi = best_i[tid + s];
      const float mv = best_v[tid];
      const int64_t mi = best_i[tid];
      // Take the other pair when it holds an element and beats mine (or ties with a smaller
      // index); an index of N marks a thread that saw no element.
      if (oi != N && (mi == N || ov > mv || (ov == mv && oi < mi))) {
        best_v[tid] = ov;
        best_i[tid] = oi;
      }
    }
    __syncthreads();
  }
  if (tid == 0) {
    values[row] = best_v[0];
    indices[row] = best_i[0];
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* values = (float*)call->tensors[1].data;
  int64_t* indices = (int64_t*)call->tensors[2].data;
  const int64_t M = call->params[0].i, N = call->params[1].i;
  max_dim<<<(unsigned)M, kThreads, 0, (hipStream_t)call->stream>>>(x, values, indices, M, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
