// A solution of the task `kta new torch2hip add_scaled --from add_scaled.py` makes: y = a + alpha b
// over the tensors and params in the order the scaffold declares them (a, b, y; D0, D1, alpha).
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__global__ void add_scaled(const float* a, const float* b, float* y, float alpha, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] + alpha * b[i];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 3)
    return 1;
  const int64_t n = call->params[0].i * call->params[1].i;
  const float alpha = (float)call->params[2].f;
  const unsigned blocks = (unsigned)((n + 255) / 256);
  add_scaled<<<blocks, 256, 0, (hipStream_t)call->stream>>>(
      (const float*)call->tensors[0].data, (const float*)call->tensors[1].data,
      (float*)call->tensors[2].data, alpha, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
