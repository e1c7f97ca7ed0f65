// A launcher-mode candidate: its own grid choice and a <<<>>> launch on the stream kta passes.
#include <hip/hip_runtime.h>
#include <kta/launch.h>

__global__ void saxpy_kernel(float a, const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 2) return 1;
  const float* x = static_cast<const float*>(call->tensors[0].data);
  float* y = static_cast<float*>(call->tensors[1].data);
  float a = float(call->params[0].f);
  long n = call->params[1].i;
  unsigned blocks = unsigned((n + 255) / 256);
  saxpy_kernel<<<blocks, 256, 0, static_cast<hipStream_t>(call->stream)>>>(a, x, y, n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
