// Reference for the gather task: one thread per output row i copies table[index[i], :] to
// out[i, :], element by element.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void gather_ref(const float* __restrict__ table, const int64_t* __restrict__ index,
                           float* __restrict__ out, int64_t n, int64_t d, int64_t v) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int64_t row = index[i];
  if (row < 0 || row >= v) return;  // never: the indices are drawn in [0, V)
  for (int64_t k = 0; k < d; ++k) out[i * d + k] = table[row * d + k];
}
