#include <hip/hip_runtime.h>

// A 7-point stencil over a D x H x W volume on a 3-D grid of 3-D blocks; sizes that are not
// multiples of the block leave partial blocks on every axis.
__global__ void stencil7(const float* in, float* out, int d, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= w || y >= h || z >= d) return;
  auto at = [&](int zz, int yy, int xx) {
    if (zz < 0 || zz >= d || yy < 0 || yy >= h || xx < 0 || xx >= w) return 0.0f;
    return in[((long)zz * h + yy) * w + xx];
  };
  float s = 6 * at(z, y, x) - at(z - 1, y, x) - at(z + 1, y, x) - at(z, y - 1, x) -
            at(z, y + 1, x) - at(z, y, x - 1) - at(z, y, x + 1);
  // Which block and thread wrote it, so the test sees every index of the geometry.
  out[((long)z * h + y) * w + x] =
      s + 1000.0f * (blockIdx.z * gridDim.y * gridDim.x + blockIdx.y * gridDim.x + blockIdx.x);
}
