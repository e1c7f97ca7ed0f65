// Starter for the linear_logsumexp task: a direct HIP translation of the module, correct for
// every size and unoptimized. Two kernels, as PyTorch runs it: the linear layer writes the
// logits z = x w^T + b to a scratch [B, H] buffer (one thread per logit, a dot product of length
// D straight from global memory), then one block of 256 threads per row reads its logits back
// and computes max + log(sum exp(z - max)) with two shared-memory tree reductions.
// Tensors (declaration order): x f32[B, D], w f32[H, D], b f32[H], y f32[B]; params B, D, H.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void linear(const float* x, const float* w, const float* b, float* z, int64_t B,
                       int64_t D, int64_t H) {
  const int64_t h = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (h >= H) return;
  for (int64_t r = blockIdx.y; r < B; r += gridDim.y) {  // grid y is capped at 65535
    const float* xr = x + r * D;
    const float* wr = w + h * D;
    float acc = 0.0f;
    for (int64_t k = 0; k < D; ++k) acc += xr[k] * wr[k];
    z[r * H + h] = acc + b[h];
  }
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

__global__ void logsumexp_rows(const float* z, float* y, int64_t B, int64_t H) {
  __shared__ float red[kThreads];
  const int64_t row = blockIdx.x;
  if (row >= B) return;  // uniform across the block
  const float* zr = z + row * H;
  float m = -INFINITY;
  for (int64_t h = threadIdx.x; h < H; h += kThreads) m = fmaxf(m, zr[h]);
  m = block_reduce(m, red, Max());
  float s = 0.0f;
  for (int64_t h = threadIdx.x; h < H; h += kThreads) s += expf(zr[h] - m);
  s = block_reduce(s, red, Add());
  if (threadIdx.x == 0) y[row] = m + logf(s);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, D = call->params[1].i, H = call->params[2].i;
  hipStream_t stream = (hipStream_t)call->stream;
  float* z = nullptr;  // the [B, H] logits
  if (hipMalloc((void**)&z, (size_t)(B * H) * sizeof(float)) != hipSuccess) return 3;
  const int64_t gy = B < 65535 ? B : 65535;
  dim3 grid((unsigned)((H + kThreads - 1) / kThreads), (unsigned)gy);
  linear<<<grid, kThreads, 0, stream>>>(x, w, b, z, B, D, H);
  logsumexp_rows<<<(unsigned)B, kThreads, 0, stream>>>(z, y, B, H);
  const bool ok = hipGetLastError() == hipSuccess;
  hipFree(z);
  return ok ? 0 : 2;
}
