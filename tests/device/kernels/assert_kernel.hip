#include <hip/hip_runtime.h>
#include <cassert>

__global__ void checked(const int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(x[i] >= 0);
  }
}
