// A warp size macro used for lane math.
#include <hip/hip_runtime.h>

#define WARP_SIZE 32

__global__ void warp_prefix(const int* x, int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % WARP_SIZE;
  int v = i < n ? x[i] : 0;
  for (int d = 1; d < warpSize; d *= 2) {
    int up = __shfl_up(v, d);
    if (lane >= d) v += up;
  }
  if (i < n) y[i] = v;
}
