// Reference for the batched_matmul task: one thread per element of C (over all batches), the
// K-long dot product of a row of A[b] and a column of B[b] accumulated in double precision
// (every f32 product is exact in f64) and rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void batched_matmul_ref(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ c, int64_t batch, int64_t m, int64_t n,
                                   int64_t k) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= batch * m * n) return;
  const int64_t z = t / (m * n), i = (t / n) % m, j = t % n;
  const float* az = a + z * m * k;
  const float* bz = b + z * k * n;
  double acc = 0.0;
  for (int64_t p = 0; p < k; ++p) acc += (double)az[i * k + p] * (double)bz[p * n + j];
  c[t] = (float)acc;
}
