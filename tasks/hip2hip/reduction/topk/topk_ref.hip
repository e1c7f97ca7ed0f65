// Reference for the topk task: one thread per row picks the K largest elements one after
// another. Order the elements by value, descending, then by index, ascending; pick j is the
// first element in that order that comes after pick j - 1, found by one scan of the row
// (a later element replaces the best so far only when strictly larger, so an equal value keeps
// its smallest index). O(K N) per row, no extra memory, obviously in the required order.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void topk_ref(const float* __restrict__ x, float* __restrict__ values,
                         int64_t* __restrict__ indices, int64_t m, int64_t n, int64_t k) {
  const int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float* xr = x + row * n;
  float pv = INFINITY;  // the previous pick, (value, index): nothing precedes the first pick
  int64_t pi = -1;
  for (int64_t j = 0; j < k; ++j) {
    float bv = 0.0f;
    int64_t bi = -1;
    for (int64_t c = 0; c < n; ++c) {
      const float v = xr[c];
      const bool after_prev = v < pv || (v == pv && c > pi);
      if (after_prev && (bi < 0 || v > bv)) {
        bv = v;
        bi = c;
      }
    }
    values[row * k + j] = bv;  // k <= n, so a pick always exists
    indices[row * k + j] = bi;
    pv = bv;
    pi = bi;
  }
}
