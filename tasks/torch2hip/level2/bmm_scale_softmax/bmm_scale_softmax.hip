// Starter for the bmm_scale_softmax task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels, as PyTorch runs it: one thread per score computes the scaled dot
// product of length D straight from global memory and writes it into y; then one block of 256
// threads per row reads the row back, computes its maximum and its sum of exponentials with
// shared-memory tree reductions, and overwrites it with the probabilities.
// Tensors (declaration order): q f32[B, M, D], k f32[B, N, D], y f32[B, M, N];
// params B, M, N, D, scale.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

// y[b, i, j] = scale * q[b, i, :] . k[b, j, :]. Rows (b, i) on grid x, keys j on grid y.
__global__ void scores(const float* q, const float* k, float* y, int64_t M, int64_t N, int64_t D,
                       float scale) {
  const int64_t row = blockIdx.x;  // b * M + i
  const int64_t j = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
  if (j >= N) return;
  const int64_t b = row / M;
  const float* qi = q + row * D;
  const float* kj = k + (b * N + j) * D;
  float acc = 0.0f;
  for (int64_t d = 0; d < D; ++d) acc += qi[d] * kj[d];
  y[row * N + j] = acc * scale;
}

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};

template <class Op>
__device__ float block_reduce(float v, float* red, Op op) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = op(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

// y[row, :] = softmax(y[row, :]) in place, one block per row.
__global__ void softmax_rows(float* y, int64_t rows, int64_t N) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= rows) return;  // uniform across the block
  float* yr = y + row * N;
  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) m = fmaxf(m, yr[j]);
  m = block_reduce(m, red, Max());
  float l = 0.0f;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) l += expf(yr[j] - m);
  l = block_reduce(l, red, Add());
  for (int64_t j = threadIdx.x; j < N; j += kThreads) yr[j] = expf(yr[j] - m) / l;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 5)
    return 1;
  const float* q = (const float*)call->tensors[0].data;
  const float* k = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i,
                D = call->params[3].i;
  const float scale = (float)call->params[4].f;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t rows = B * M;
  const int threads = 256;
  dim3 grid((unsigned)rows, (unsigned)((N + threads - 1) / threads));
  scores<<<grid, threads, 0, stream>>>(q, k, y, M, N, D, scale);
  softmax_rows<<<(unsigned)rows, kThreads, 0, stream>>>(y, rows, N);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
