#include <hip/hip_runtime.h>

// A width-64 rotation by half a warp: the lane 32 away at warp size 64, past the warp at 32
// (CUDA allows widths up to 32 only).
__global__ void wide_shuffle(const int* x, int* out) {
  out[threadIdx.x] = __shfl(x[threadIdx.x], (int)threadIdx.x + 32, 64);
}
