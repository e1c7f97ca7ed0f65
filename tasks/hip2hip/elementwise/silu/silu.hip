// Baseline for the silu task: y = x * sigmoid(x) over f16, computed in f32.
// Launched with grid ceil_div(n, 1024), block 256: each block covers 1024 consecutive elements,
// each thread 4 of them, one f16 load and one f16 store at a time, strided by the block size so
// that every load is coalesced.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void silu(const __half* x, __half* y, int64_t n) {
  const int per_thread = 4;
  const int64_t base = (int64_t)blockIdx.x * blockDim.x * per_thread + threadIdx.x;
  for (int j = 0; j < per_thread; ++j) {
    const int64_t i = base + (int64_t)j * blockDim.x;
    if (i < n) {
      const float v = __half2float(x[i]);
      y[i] = __float2half(v / (1.0f + expf(-v)));
    }
  }
}
