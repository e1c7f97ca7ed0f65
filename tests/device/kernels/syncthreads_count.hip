#include <hip/hip_runtime.h>

__global__ void sync_count(const int* x, int* count, int* any, int* all) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int c = __syncthreads_count(v > 0);
  int o = __syncthreads_or(v > 5);
  int a = __syncthreads_and(v >= 0);
  if (threadIdx.x == 0) {
    count[blockIdx.x] = c;
    any[blockIdx.x] = o;
    all[blockIdx.x] = a;
  }
}
