#include <hip/hip_runtime.h>

template <typename T>
__global__ void scale(T* y, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= s;
}
template __global__ void scale<float>(float*, float, int);
