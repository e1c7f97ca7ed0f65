#include <hip/hip_runtime.h>
#include <kta/launch.h>

// Picks its block size from the device properties, stages the input through a device copy,
// zeroes the output with hipMemsetAsync, then y = x + warpSize. Tensors: x, y; param n.
__global__ void add_warp(const int* x, int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i] + warpSize;
}

extern "C" int kta_launch(const kta_call* call) {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return 1;
  int n = (int)call->params[0].i;
  int block = prop.maxThreadsPerBlock >= 256 ? 256 : prop.maxThreadsPerBlock;
  int* staged = nullptr;
  hipMalloc(&staged, n * sizeof(int));
  hipMemcpy(staged, call->tensors[0].data, n * sizeof(int), hipMemcpyDeviceToDevice);
  hipMemsetAsync(call->tensors[1].data, 0, n * sizeof(int), (hipStream_t)call->stream);
  hipLaunchKernelGGL(add_warp, dim3((n + block - 1) / block), dim3(block), 0, 0, staged, (int*)call->tensors[1].data, n);
  hipDeviceSynchronize();
  hipFree(staged);
  return prop.warpSize == warpSize ? 0 : 2;
}
