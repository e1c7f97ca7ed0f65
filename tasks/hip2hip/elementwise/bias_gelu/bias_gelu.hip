// Baseline for the bias_gelu task: y[r, k] = gelu(x[r, k] + bias[k]), exact (erf) GELU in f32.
// Launched with grid (ceil_div(n, 1024), m) and block 256: blockIdx.y is the row, each block
// covers 1024 consecutive columns of it, and each thread handles the columns tid, tid + 256,
// tid + 512 and tid + 768 of that span (coalesced), one float load and store at a time.
#include <hip/hip_runtime.h>
#include <stdint.h>

constexpr int kPerBlock = 1024;

__global__ void bias_gelu(const float* x, const float* bias, float* y, int64_t m, int64_t n) {
  const int64_t row = blockIdx.y;
  if (row >= m) return;
  const int64_t c0 = (int64_t)blockIdx.x * kPerBlock + threadIdx.x;
  const float* xr = x + row * n;
  float* yr = y + row * n;
  for (int j = 0; j < kPerBlock; j += blockDim.x) {
    const int64_t c = c0 + j;
    if (c < n) {
      const float v = xr[c] + bias[c];
      yr[c] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
    }
  }
}
