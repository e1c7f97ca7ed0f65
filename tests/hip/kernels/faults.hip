#include <hip/hip_runtime.h>

// Writes far outside any allocation: an illegal address on the GPU.
__global__ void wild_write(float* y, long offset) { y[offset + threadIdx.x] = 1.0f; }

__global__ void say_hello(int v) {
  if (threadIdx.x == 0 && blockIdx.x == 0) printf("hello from the gpu %d\n", v);
}

// Uses 64 KiB of dynamic shared memory (above the 48 KiB default on NVIDIA).
__global__ void big_shared(float* y, int n) {
  HIP_DYNAMIC_SHARED(float, s)
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = float(i);
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = s[n - 1 - i];
}

__global__ void ballot_count(unsigned long long* out) {
  unsigned long long b = __ballot(threadIdx.x % 3 == 0);
  if (threadIdx.x == 0) out[0] = b;
}
