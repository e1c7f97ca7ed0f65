#include <hip/hip_runtime.h>

__global__ void fill(float* y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1;
}

// Forgot #include <kta/launch.h>.
extern "C" int kta_launch(const kta_call* call) {
  fill<<<1, 64>>>((float*)call->tensors[1].data, call->params[0].i);
  return 0;
}
