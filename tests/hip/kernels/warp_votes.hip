// HIP's non-_sync warp functions: ptxas rejects them on sm_70+ unless the prelude maps them.
#include <hip/hip_runtime.h>

__global__ void votes(unsigned long long* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n && x[i] > 0.0f;
  unsigned long long b = __ballot(v);
  float s = __shfl_xor(i < n ? x[i] : 0.0f, 1);
  float d = __shfl_down(s, 2);
  float u = __shfl_up(d, 1, 16);
  float w = __shfl(u, 0);
  if (threadIdx.x == 0) {
    out[0] = b;
    out[1] = __any(v);
    out[2] = __all(v);
    out[3] = static_cast<unsigned long long>(w);
  }
}
