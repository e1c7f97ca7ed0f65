// Starter for the softmax_matmul task: a direct HIP translation, correct for every size and
// unoptimized. Two kernels, as PyTorch runs it: one block of 256 threads per row of s computes
// the maximum and the sum of exponentials with shared-memory tree reductions and writes the
// probabilities to a scratch [B, M, N] buffer; then one thread per output element computes a dot
// product of length N over the probabilities and a column of v straight from global memory.
// Tensors (declaration order): s f32[B, M, N], v f32[B, N, D], y f32[B, M, D];
// params B, M, N, D.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

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
  for (int st = kThreads / 2; st > 0; st >>= 1) {
    if (tid < st) red[tid] = op(red[tid], red[tid + st]);
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next call
  return total;
}

// p[row, :] = softmax(s[row, :]) for row < rows (rows = B * M).
__global__ void softmax_rows(const float* s, float* p, int64_t rows, int64_t N) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= rows) return;  // uniform across the block
  const float* sr = s + row * N;
  float* pr = p + row * N;
  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) m = fmaxf(m, sr[j]);
  m = block_reduce(m, red, Max());
  float l = 0.0f;
  for (int64_t j = threadIdx.x; j < N; j += kThreads) l += expf(sr[j] - m);
  l = block_reduce(l, red, Add());
  for (int64_t j = threadIdx.x; j < N; j += kThreads) pr[j] = expf(sr[j] - m) / l;
}

// y[b, i, d] = sum_j p[b, i, j] v[b, j, d]; one thread per output, rows (b, i) on grid x.
__global__ void bmm_pv(const float* p, const float* v, float* y, int64_t M, int64_t N, int64_t D) {
  const int64_t row = blockIdx.x;  // b * M + i
  const int64_t d = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
  if (d >= D) return;
  const int64_t b = row / M;
  const float* pr = p + row * N;
  const float* vb = v + b * N * D;
  float acc = 0.0f;
  for (int64_t j = 0; j < N; ++j) acc += pr[j] * vb[j * D + d];
  y[row * D + d] = acc;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 4)
    return 1;
  const float* s = (const float*)call->tensors[0].data;
  const float* v = (const float*)call->tensors[1].data;
  float* y = (float*)call->tensors[2].data;
  const int64_t B = call->params[0].i, M = call->params[1].i, N = call->params[2].i,
                D = call->params[3].i;
  hipStream_t stream = (hipStream_t)call->stream;
  const int64_t rows = B * M;
  float* p = nullptr;
  if (hipMalloc(&p, (size_t)(rows * N) * sizeof(float)) != hipSuccess) return 3;
  softmax_rows<<<(unsigned)rows, kThreads, 0, stream>>>(s, p, rows, N);
  const int threads = 64;
  dim3 grid((unsigned)rows, (unsigned)((D + threads - 1) / threads));
  bmm_pv<<<grid, threads, 0, stream>>>(p, v, y, M, N, D);
  const bool ok = hipGetLastError() == hipSuccess;
  // hipFree waits for the kernels that use p to finish.
  if (hipFree(p) != hipSuccess) return 3;
  return ok ? 0 : 2;
}
