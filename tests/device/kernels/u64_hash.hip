#include <hip/hip_runtime.h>

// FNV-1a of each 32-bit key into a 64-bit hash, and a count: unsigned long long, the type 64-bit
// atomics take, over u32 and u64 tensors.
__global__ void fnv_hash(const unsigned int* keys, unsigned long long* hashes,
                         unsigned long long* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long h = 1469598103934665603ull;
  for (int b = 0; b < 4; ++b) {
    h ^= (keys[i] >> (8 * b)) & 0xffu;
    h *= 1099511628211ull;
  }
  hashes[i] = h;
  atomicAdd(count, 1ull);
}
