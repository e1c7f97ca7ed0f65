#include <hip/hip_runtime.h>

// ints[0]: sum, [1]: min, [2]: max, [3]: and, [4]: or, [5]: xor, [6]: sub, [7]: CAS-incremented counter
__global__ void atomics_mix(const int* x, int* ints, unsigned long long* big, float* f, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  atomicAdd(&ints[0], v);
  atomicMin(&ints[1], v);
  atomicMax(&ints[2], v);
  atomicAnd(&ints[3], v | 0x100);
  atomicOr(&ints[4], v);
  atomicXor(&ints[5], v);
  atomicSub(&ints[6], v);
  int old = ints[7], assumed;
  do {
    assumed = old;
    old = atomicCAS(&ints[7], assumed, assumed + 1);
  } while (old != assumed);
  atomicAdd(&big[0], (unsigned long long)v);
  atomicMax(&big[1], (unsigned long long)v);
  atomicExch(&big[2], 7ull);
  atomicAdd(f, 0.5f);
  atomicAdd(d, 0.25);
}
