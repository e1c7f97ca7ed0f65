#include <hip/hip_runtime.h>
#include <stdint.h>

// One block per row: each thread sums a strided slice, then adds it into a shared accumulator
// with a float atomicAdd, whose order of additions varies from run to run on a GPU.
__global__ void row_sum_ref(const float* x, float* y, int64_t m, int64_t n) {
  __shared__ float acc;
  const int64_t row = blockIdx.x;
  if (threadIdx.x == 0) acc = 0;
  __syncthreads();
  float s = 0;
  for (int64_t c = threadIdx.x; c < n; c += blockDim.x) s += x[row * n + c];
  atomicAdd(&acc, s);
  __syncthreads();
  if (threadIdx.x == 0) y[row] = acc;
}
