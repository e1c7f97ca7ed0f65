// Chooses a kernel on n's alignment, never on its value; both paths are general.
#include <hip/hip_runtime.h>

__global__ void copy2(const float2* x, float2* y, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) y[i] = x[i];
}

__global__ void copy1(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

void launch(const float* x, float* y, int n, hipStream_t s) {
  if ((n & 1) == 0) {
    copy2<<<(n / 2 + 255) / 256, 256, 0, s>>>(reinterpret_cast<const float2*>(x), reinterpret_cast<float2*>(y), n / 2);
    return;
  }
  copy1<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
}
