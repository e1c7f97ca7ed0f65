#include <hip/hip_runtime.h>

// Every thread of a 3-D grid of 3-D blocks writes its global coordinates' linear index.
__global__ void geometry_3d(int* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int lin = (z * ny + y) * nx + x;
    out[lin] = lin + 1000000 * (gridDim.x * gridDim.y * gridDim.z == 0);
  }
}
