// A deliberate fixed extent, suppressed with a reason.
#include <hip/hip_runtime.h>

__global__ void rgba_to_gray(const uchar4* in, float* out, int pixels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  uchar4 p = in[i];
  // kta-audit: allow(kta-shape-literal): 4096 is the fixed colour table size, not a shape
  out[i] = (0.299f * p.x + 0.587f * p.y + 0.114f * p.z) / 4096;
}
