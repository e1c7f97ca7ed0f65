#include <hip/hip_runtime.h>

__device__ float atomic_max_float(float* address, float value) {
  unsigned int* a = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *a, assumed;
  do {
    assumed = old;
    if (__uint_as_float(assumed) >= value) break;
    old = atomicCAS(a, assumed, __float_as_uint(value));
  } while (old != assumed);
  return __uint_as_float(old);
}

__global__ void hot_hash(const unsigned int* keys, const float* w, unsigned long long* hashes,
                         float* m, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long h = 1469598103934665603ull;
  for (int b = 0; b < 4; ++b) {
    h ^= (keys[i] >> (8 * b)) & 0xffu;
    h *= 1099511628211ull;
  }
  hashes[i] = h;
  atomic_max_float(m, w[i]);
}
