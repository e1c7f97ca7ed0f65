// Baseline for the gather task: out[i, :] = table[index[i], :], one output element per thread.
// Launched with grid ceil_div(n * d, 256) and block 256. Each thread splits its flat output index
// e into the row i = e / d and the column e % d (64-bit division), loads index[i] (the same
// address for the d threads of a row, served by the cache) and copies one float; consecutive
// threads copy consecutive columns, so each row's read and write are coalesced.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void gather(const float* table, const int64_t* index, float* out, int64_t n,
                       int64_t d, int64_t v) {
  const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n * d) return;
  const int64_t i = e / d;
  const int64_t col = e - i * d;
  out[e] = table[index[i] * d + col];
}
