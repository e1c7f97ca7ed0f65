#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>

__global__ void bf16_scale(const __hip_bfloat16* x, __hip_bfloat16* y, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(__bfloat162float(x[i]) * scale) + x[i];
}
