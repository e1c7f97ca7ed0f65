#include <hip/hip_runtime.h>

// Each output row holds one shuffle variant of the lane values (width 8 segments for two).
__global__ void shuffles(const int* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  out[0 * n + i] = __shfl(v, 3);
  out[1 * n + i] = __shfl_up(v, 1);
  out[2 * n + i] = __shfl_xor(v, 1);
  out[3 * n + i] = __shfl_down_sync(0xffffffffu, v, 2, 8);
  out[4 * n + i] = __shfl_sync(0xffffffffu, v, 0, 8);
  out[5 * n + i] = (int)__shfl_xor_sync(0xffffffffu, (double)v, 4);
}
