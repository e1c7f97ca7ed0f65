#include <hip/hip_runtime.h>

// Reverses each block's chunk through dynamic shared memory declared with HIP_DYNAMIC_SHARED,
// and with a namespace-scope extern __shared__ array.
extern __shared__ int file_scope_shared[];

__global__ void reverse_chunks(const int* in, int* out, int* out2) {
  HIP_DYNAMIC_SHARED(int, buf)
  int base = blockIdx.x * blockDim.x;
  buf[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
  file_scope_shared[threadIdx.x] = 2 * in[base + threadIdx.x];
  __syncthreads();
  out2[base + threadIdx.x] = file_scope_shared[blockDim.x - 1 - threadIdx.x];
}
