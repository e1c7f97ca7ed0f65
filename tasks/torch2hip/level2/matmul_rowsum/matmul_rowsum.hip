// Starter for the matmul_rowsum task: a direct HIP translation of the PyTorch module, correct
// for every size and unoptimized. Two kernels, as PyTorch runs it: one thread per (row, feature)
// computes the linear layer's dot product of length K straight from global memory (plus the
// bias) into a scratch [B, H] buffer; then one block of 256 threads per row sums its H features
// with a shared-memory tree reduction.
// Tensors (declaration order): x f32[B, K], w f32[H, K], b f32[H], y f32[B]; params B, K, H.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

// z[r, h] = x[r, :] . w[h, :] + b[h]. Rows on grid x, features on grid y.
__global__ void linear(const float* x, const float* w, const float* b, float* z, int64_t B,
                       int64_t K, int64_t H) {
  const int64_t r = blockIdx.x;
  const int64_t h = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
  if (h >= H || r >= B) return;
  const float* xr = x + r * K;
  const float* wr = w + h * K;
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += xr[k] * wr[k];
  z[r * H + h] = acc + b[h];
}

// y[r] = sum_h z[r, h]: one block per row.
__global__ void row_sum(const float* z, float* y, int64_t B, int64_t H) {
  __shared__ float red[kThreads];
  const int64_t r = blockIdx.x;
  if (r >= B) return;  // uniform across the block
  const int tid = threadIdx.x;
  float acc = 0.0f;
  for (int64_t h = tid; h < H; h += kThreads) acc += z[r * H + h];
  red[tid] = acc;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) y[r] = red[0];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, K = call->params[1].i, H = call->params[2].i;
  hipStream_t stream = (hipStream_t)call->stream;
  float* z = nullptr;
  if (hipMalloc(&z, (size_t)(B * H) * sizeof(float)) != hipSuccess) return 3;
  const int threads = 256;
  dim3 grid((unsigned)B, (unsigned)((H + threads - 1) / threads));
  linear<<<grid, threads, 0, stream>>>(x, w, b, z, B, K, H);
  row_sum<<<(unsigned)B, kThreads, 0, stream>>>(z, y, B, H);
  const bool ok = hipGetLastError() == hipSuccess;
  // hipFree waits for the kernels that use z to finish.
  if (hipFree(z) != hipSuccess) return 3;
  return ok ? 0 : 2;
}
