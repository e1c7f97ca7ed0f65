// Half and bfloat16 types, dynamic shared memory and HIP's index macros.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <math.h>
#include <float.h>

__global__ void mix(const __half* a, const __hip_bfloat16* b, float* out, int n) {
  HIP_DYNAMIC_SHARED(float, tile)
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  float v = i < n ? __half2float(a[i]) + __bfloat162float(b[i]) : -INFINITY;
  tile[hipThreadIdx_x] = fmaxf(v, -FLT_MAX);
  __syncthreads();
  if (i < n) out[i] = tile[hipThreadIdx_x] + tile[(hipThreadIdx_x + 1) % hipBlockDim_x] * M_PI;
}
