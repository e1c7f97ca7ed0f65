// Reference for the concat task: one thread per row r writes out[r, :] from left to right,
// taking a[r, :], then b[r, :], then c[r, :].
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void concat_ref(const float* __restrict__ a, const float* __restrict__ b,
                           const float* __restrict__ c, float* __restrict__ out, int64_t m,
                           int64_t wa, int64_t wb, int64_t wc) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  float* o = out + r * (wa + wb + wc);
  for (int64_t k = 0; k < wa; ++k) o[k] = a[r * wa + k];
  for (int64_t k = 0; k < wb; ++k) o[wa + k] = b[r * wb + k];
  for (int64_t k = 0; k < wc; ++k) o[wa + wb + k] = c[r * wc + k];
}
