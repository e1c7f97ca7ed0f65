#include <hip/hip_runtime.h>

// A float atomic maximum through an atomicCAS loop on the bits, as kernels write it where the
// hardware has no float max: the block's maximum first (shared memory), then one CAS loop per
// block on the global result.
__device__ float atomic_max_float(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits;
  while (__int_as_float(old) < value) {
    int seen = atomicCAS(bits, old, __float_as_int(value));
    if (seen == old) break;
    old = seen;
  }
  return __int_as_float(old);
}

__global__ void max_reduce(const float* x, float* result, int n) {
  __shared__ float block_max[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  block_max[threadIdx.x] = i < n ? x[i] : -INFINITY;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if ((int)threadIdx.x < k)
      block_max[threadIdx.x] = fmaxf(block_max[threadIdx.x], block_max[threadIdx.x + k]);
    __syncthreads();
  }
  if (threadIdx.x == 0) atomic_max_float(result, block_max[0]);
}

// Every thread competes on one address: the CAS loop under contention.
__global__ void max_contended(const float* x, float* result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(result, x[i]);
}
