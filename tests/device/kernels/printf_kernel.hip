#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void hello(int tag) {
  if (threadIdx.x == 0) printf("block %d of %d says %d\n", (int)blockIdx.x, (int)gridDim.x, tag);
}
