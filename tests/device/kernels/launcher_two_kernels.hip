#include <hip/hip_runtime.h>
#include <kta/launch.h>

// y = softplus(x) normalized by its sum: kernel 1 writes softplus into a workspace and block
// partial sums, kernel 2 divides. Tensors: x (in), y (out); param: N.
__global__ void softplus_partial(const float* x, float* work, float* partial, long n) {
  __shared__ float s[256];
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  float v = i < n ? log1pf(expf(x[i])) : 0.0f;
  if (i < n) work[i] = v;
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void normalize(const float* work, const float* partial, int blocks, float* y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  float total = 0;
  for (int b = 0; b < blocks; ++b) total += partial[b];
  if (i < n) y[i] = work[i] / total;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2 || call->num_params != 1) return 1;
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  long n = call->params[0].i;
  int blocks = (int)((n + 255) / 256);
  float* work = nullptr;
  float* partial = nullptr;
  if (hipMalloc(&work, n * sizeof(float)) != hipSuccess) return 2;
  if (hipMalloc((void**)&partial, blocks * sizeof(float)) != hipSuccess) return 2;
  hipStream_t stream = (hipStream_t)call->stream;
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventRecord(start, stream);
  hipLaunchKernelGGL(softplus_partial, dim3(blocks), dim3(256), 0, stream, x, work, partial, n);
  hipLaunchKernelGGL(normalize, dim3(blocks), dim3(256), 0, stream, work, partial, blocks, y, n);
  hipEventRecord(stop, stream);
  hipEventSynchronize(stop);
  float ms = -1;
  hipEventElapsedTime(&ms, start, stop);
  hipError_t err = hipGetLastError();
  hipFree(work);
  hipFree(partial);
  hipEventDestroy(start);
  hipEventDestroy(stop);
  if (ms < 0) return 3;
  return err == hipSuccess ? 0 : 4;
}
