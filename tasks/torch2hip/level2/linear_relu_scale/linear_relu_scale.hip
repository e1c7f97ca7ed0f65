// Starter for the linear_relu_scale task: a direct HIP translation of the PyTorch module, correct
// for every size and unoptimized. One thread per output element computes a dot product of length
// D straight from global memory (no reuse of x or w through shared memory or registers), adds the
// bias, clamps at zero and scales.
// Tensors (declaration order): x f32[B, D], w f32[H, D], b f32[H], y f32[B, H];
// params B, D, H, scale.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void linear_relu_scale(const float* x, const float* w, const float* b, float* y,
                                  int64_t B, int64_t D, int64_t H, float scale) {
  const int64_t r = blockIdx.x;
  const int64_t h = (int64_t)blockIdx.y * blockDim.x + threadIdx.x;
  if (h >= H || r >= B) return;
  const float* xr = x + r * D;
  const float* wr = w + h * D;
  float acc = 0.0f;
  for (int64_t k = 0; k < D; ++k) acc += xr[k] * wr[k];
  const float z = acc + b[h];
  y[r * H + h] = (z > 0.0f ? z : 0.0f) * scale;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, D = call->params[1].i, H = call->params[2].i;
  const float scale = (float)call->params[3].f;
  const int threads = 256;
  // Rows of the batch go on grid x (up to 2^31 - 1 blocks), output features on grid y in chunks
  // of 256: grid y stays below 65535 for H up to ~16M.
  dim3 grid((unsigned)B, (unsigned)((H + threads - 1) / threads));
  linear_relu_scale<<<grid, threads, 0, (hipStream_t)call->stream>>>(x, w, b, y, B, D, H, scale);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
