// Starter for the swiglu_gate task: a direct HIP translation, correct for every size and
// unoptimized. One thread per output element computes both dot products of length D (the gate
// and the up projection) straight from global memory, with no reuse of x or the weights through
// shared memory or registers, then applies y = silu(g) * u.
// Tensors (declaration order): x f32[T, D], wg f32[F, D], wu f32[F, D], y f32[T, F];
// params T, D, F.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

__global__ void swiglu_gate(const float* x, const float* wg, const float* wu, float* y, int64_t T,
                            int64_t D, int64_t F) {
  const int64_t f = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= F) return;
  for (int64_t t = blockIdx.y; t < T; t += gridDim.y) {  // grid y is capped at 65535
    const float* xr = x + t * D;
    const float* gr = wg + f * D;
    const float* ur = wu + f * D;
    float g = 0.0f, u = 0.0f;
    for (int64_t k = 0; k < D; ++k) {
      g += xr[k] * gr[k];
      u += xr[k] * ur[k];
    }
    y[t * F + f] = g / (1.0f + expf(-g)) * u;
  }
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 3)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* wg = (const float*)call->tensors[1].data;
  const float* wu = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t T = call->params[0].i, D = call->params[1].i, F = call->params[2].i;
  const int threads = 256;
  const int64_t gy = T < 65535 ? T : 65535;
  dim3 grid((unsigned)((F + threads - 1) / threads), (unsigned)gy);
  swiglu_gate<<<grid, threads, 0, (hipStream_t)call->stream>>>(x, wg, wu, y, T, D, F);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
