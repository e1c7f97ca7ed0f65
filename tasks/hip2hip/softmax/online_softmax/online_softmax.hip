// Baseline for the online_softmax task (launcher mode): two kernels.
//  1. row_stats: one block of 1024 threads per row. Each thread walks a strided slice of the row
//     keeping a running maximum m and a running sum s of exp(x - m), rescaling s by
//     exp(m_old - m_new) when the maximum grows (the online softmax update, one exp per
//     element); the block combines the (m, s) pairs in a shared-memory tree with a
//     __syncthreads per level and stores the row's maximum and 1 / sum.
//  2. normalize: one thread per element over the whole matrix, y = exp(x - m) * (1 / sum).
// The statistics live in a static __device__ array (no allocation, so the launcher can be
// captured in a graph; the kernels take a null pointer to mean it); more rows than it holds
// fall back to hipMalloc. With few rows, kernel 1
// runs on a handful of multiprocessors while the rest of the GPU idles: it dominates the time.
// Tensors (declaration order): x f32[M, N], y f32[M, N]; params: M, N.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kStatThreads = 1024;
constexpr int kThreads = 256;
constexpr int64_t kMaxRows = 4096;

__device__ float2 g_stats[kMaxRows];  // per row: (maximum, 1 / sum of exp(x - maximum))

// Merge the partial (max, sum) pair (m2, s2) into (m, s).
__device__ void merge(float& m, float& s, float m2, float s2) {
  if (m2 == -INFINITY) return;  // an empty partial: nothing to add
  if (m2 > m) {
    s = s * expf(m - m2) + s2;  // exp(-inf) = 0 when (m, s) was empty
    m = m2;
  } else {
    s += s2 * expf(m2 - m);
  }
}

__global__ void row_stats(const float* x, float2* stats, int64_t n) {
  if (stats == nullptr) stats = g_stats;
  __shared__ float red_m[kStatThreads];
  __shared__ float red_s[kStatThreads];
  const float* xr = x + (int64_t)blockIdx.x * n;
  const int tid = threadIdx.x;

  float m = -INFINITY, s = 0.0f;
  for (int64_t k = tid; k < n; k += kStatThreads) merge(m, s, xr[k], 1.0f);
  red_m[tid] = m;
  red_s[tid] = s;
  __syncthreads();
  for (int w = kStatThreads / 2; w > 0; w >>= 1) {
    if (tid < w) {
      float a = red_m[tid], b = red_s[tid];
      merge(a, b, red_m[tid + w], red_s[tid + w]);
      red_m[tid] = a;
      red_s[tid] = b;
    }
    __syncthreads();
  }
  if (tid == 0) stats[blockIdx.x] = make_float2(red_m[0], 1.0f / red_s[0]);
}

__global__ void normalize(const float* x, float* y, const float2* stats, int64_t total,
                          int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const float2 st = (stats != nullptr ? stats : g_stats)[i / n];
  y[i] = expf(x[i] - st.x) * st.y;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  const int64_t m = call->params[0].i, n = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;

  float2* stats = nullptr;  // g_stats
  if (m > kMaxRows && hipMalloc((void**)&stats, m * sizeof(float2)) != hipSuccess) return 2;
  row_stats<<<(unsigned)m, kStatThreads, 0, stream>>>(x, stats, n);
  const int64_t total = m * n;
  normalize<<<(unsigned)((total + kThreads - 1) / kThreads), kThreads, 0, stream>>>(x, y, stats,
                                                                                  total, n);
  const bool ok = hipGetLastError() == hipSuccess;
  const bool freed = m <= kMaxRows || hipFree(stats) == hipSuccess;
  return ok && freed ? 0 : 3;
}
