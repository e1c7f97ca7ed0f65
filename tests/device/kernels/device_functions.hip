#include <hip/hip_runtime.h>

__host__ __device__ inline float square(float v) { return v * v; }
__device__ __noinline__ float cube(float v) { return square(v) * v; }
static __device__ __forceinline__ int clamp_index(int i, int n) { return min(max(i, 0), n - 1); }

// 3-point stencil with clamped edges, through helper device functions.
__global__ void __launch_bounds__(128, 2) stencil(const float* __restrict__ x, float* __restrict__ y, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i >= n) return;
  y[i] = square(x[clamp_index(i - 1, n)]) + cube(x[i]) + x[clamp_index(i + 1, n)];
}
