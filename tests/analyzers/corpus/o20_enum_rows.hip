// Matrix extents as enumerators; the kernel takes no sizes at all.
#include <hip/hip_runtime.h>

enum { ROWS = 512, COLS = 4096 };

__global__ void transpose(const float* x, float* y) {
  int r = blockIdx.x;
  int c = threadIdx.x;
  for (; c < COLS; c += blockDim.x) y[c * ROWS + r] = x[r * COLS + c];
}
