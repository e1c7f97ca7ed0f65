#include <hip/hip_runtime.h>
#include <kta/launch.h>

// y = gelu(2 x), tanh approximation, one thread per element.
__global__ void scale_gelu(const float* x, float* y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 2.1f * x[i];
  float inner = 0.7978845608028654f * (v + 0.044715f * v * v * v);
  y[i] = 0.5f * v * (1.0f + tanhf(inner));
}

extern "C" int kta_launch(const kta_call* call) {
  long n = call->params[0].i * call->params[1].i;
  int block = 256;
  hipLaunchKernelGGL(scale_gelu, dim3((n + block - 1) / block), dim3(block), 0,
                     (hipStream_t)call->stream, (const float*)call->tensors[0].data,
                     (float*)call->tensors[1].data, n);
  return 0;
}
