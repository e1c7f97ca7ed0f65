// Launcher mode: sizes come from the call, the grid from the sizes.
#include <hip/hip_runtime.h>
#include <kta/launch.h>

__global__ void relu(const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

extern "C" int kta_launch(const kta_call* call) {
  const float* x = static_cast<const float*>(call->tensors[0].data);
  float* y = static_cast<float*>(call->tensors[1].data);
  long n = call->params[0].i;
  int block = 256;
  long grid = (n + block - 1) / block;
  relu<<<grid, block, 0, static_cast<hipStream_t>(call->stream)>>>(x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
