// Reference for the outer_product task: one thread per element of C, the update
// C[i, j] + alpha * x[i] * y[j] evaluated in double precision and rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void outer_product_ref(const float* __restrict__ x, const float* __restrict__ y,
                                  float* __restrict__ c, int64_t m, int64_t n, float alpha) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m * n) return;
  const int64_t i = t / n, j = t % n;
  c[t] = (float)((double)c[t] + (double)alpha * (double)x[i] * (double)y[j]);
}
