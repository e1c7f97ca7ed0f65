#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void saxpy(float a, const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" int kta_launch(const kta_call* call) {
  int64_t n = call->params[1].i;
  saxpy<<<unsigned((n + 255) / 256), 256, 0, (hipStream_t)call->stream>>>(
      float(call->params[0].f), (const float*)call->tensors[0].data, (float*)call->tensors[1].data, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
