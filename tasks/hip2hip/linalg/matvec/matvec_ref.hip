// Reference for the matvec task: one thread per row, the K-long dot product of the row of A and
// x accumulated in double precision (every f32 product is exact in f64), rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void matvec_ref(const float* __restrict__ a, const float* __restrict__ x,
                           float* __restrict__ y, int64_t m, int64_t k) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* ar = a + row * k;
  double acc = 0.0;
  for (int64_t j = 0; j < k; ++j) acc += (double)ar[j] * (double)x[j];
  y[row] = (float)acc;
}
