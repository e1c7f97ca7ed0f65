// Reference for the matmul_f32 task: one thread per element of C, the K-long dot product of a row
// of A and a column of B accumulated in double precision (every f32 product is exact in f64) and
// rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void matmul_f32_ref(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, int64_t n) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  const int64_t i = t / n, j = t % n;
  double acc = 0.0;
  for (int64_t k = 0; k < n; ++k) acc += (double)a[i * n + k] * (double)b[k * n + j];
  c[t] = (float)acc;
}
