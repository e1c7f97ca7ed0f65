#include <hip/hip_runtime.h>

// y[i] = x[index[i]]: random reads, which hardware prefetchers cannot hide, so a cold cache shows.
__global__ void gather(const float* __restrict__ x, const int* __restrict__ index,
                       float* __restrict__ y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[index[i]];
}
