// Reference for the matmul_f16 task: one thread per element of C, the K-long dot product of a
// row of A and a column of B accumulated in double precision and rounded once to f32. The
// product of two f16 values (11-bit significands) is exact in f32, so each is formed in f32 and
// widened; only the sum rounds, in f64. (Widening each f16 to double directly is the same math,
// but on the cpu device g++ turns it into a library call per value, 16x slower.)
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void matmul_f16_ref(const __half* __restrict__ a, const __half* __restrict__ b,
                               float* __restrict__ c, int64_t m, int64_t n, int64_t k) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m * n) return;
  const int64_t i = t / n, j = t % n;
  double acc = 0.0;
  for (int64_t p = 0; p < k; ++p)
    acc += (double)(__half2float(a[i * k + p]) * __half2float(b[p * n + j]));  // exact product
  c[t] = (float)acc;
}
