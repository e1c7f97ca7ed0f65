// Starter for the mlp_gelu task: a direct HIP translation of the PyTorch module, correct for
// every size and unoptimized. One thread per output element computes a dot product of length D
// straight from global memory (no reuse of x or w through shared memory or registers), adds the
// bias and applies the exact GELU.
// Tensors (declaration order): x f32[B, D], w f32[H, D], b f32[H], y f32[B, H]; params B, D, H.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

__global__ void mlp_gelu(const float* x, const float* w, const float* b, float* y, int64_t B,
                         int64_t D, int64_t H) {
  const int64_t h = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t r = blockIdx.y;
  if (h >= H || r >= B) return;
  const float* xr = x + r * D;
  const float* wr = w + h * D;
  float acc = 0.0f;
  for (int64_t k = 0; k < D; ++k) acc += xr[k] * wr[k];
  const float z = acc + b[h];
  y[r * H + h] = 0.5f * z * (1.0f + erff(z * 0.70710678118654752f));
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, D = call->params[1].i, H = call->params[2].i;
  const int threads = 256;
  dim3 grid((unsigned)((H + threads - 1) / threads), (unsigned)B);
  mlp_gelu<<<grid, threads, 0, (hipStream_t)call->stream>>>(x, w, b, y, B, D, H);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
