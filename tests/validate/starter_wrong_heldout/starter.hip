// The wrong starter: a grid of N / 256 blocks, so a partial last block is never launched.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void affine(const float* x, float* y) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 1)
    return 1;
  const int64_t n = call->params[0].i;
  if (n >= 256)
    affine<<<(unsigned)(n / 256), 256, 0, (hipStream_t)call->stream>>>(
        (const float*)call->tensors[0].data, (float*)call->tensors[1].data);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
