// Reference for the histogram_u8 task: one thread per bin, each scanning the whole input and
// counting its own value. No atomics, no shared state: obviously correct and deterministic.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void histogram_u8_ref(const uint8_t* __restrict__ x, int32_t* __restrict__ counts,
                                 int64_t n) {
  const int bin = blockIdx.x * blockDim.x + threadIdx.x;
  if (bin >= 256) return;
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += (x[i] == bin) ? 1 : 0;
  counts[bin] = (int32_t)c;
}
