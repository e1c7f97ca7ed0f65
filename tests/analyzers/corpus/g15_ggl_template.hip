// hipLaunchKernelGGL with a templated kernel and a computed grid.
#include <hip/hip_runtime.h>

template <typename T, int BLOCK>
__global__ void fill(T* x, T v, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) x[i] = v;
}

void launch(float* x, int n, hipStream_t s) {
  constexpr int kBlock = 256;
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<float, kBlock>), dim3((n + kBlock - 1) / kBlock), dim3(kBlock), 0, s,
                     x, 1.0f, n);
}
