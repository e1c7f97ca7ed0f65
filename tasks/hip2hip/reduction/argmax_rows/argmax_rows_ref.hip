// Reference for the argmax_rows task: one thread per row, a sequential scan that keeps the first
// index of the largest value (a later equal value does not replace it), so ties go to the
// smallest index.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void argmax_rows_ref(const float* __restrict__ x, int64_t* __restrict__ idx, int64_t m,
                                int64_t n) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* xr = x + row * n;
  int64_t best = 0;
  for (int64_t k = 1; k < n; ++k)
    if (xr[k] > xr[best]) best = k;
  idx[row] = best;
}
