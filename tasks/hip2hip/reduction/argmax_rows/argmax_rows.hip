// Baseline for the argmax_rows task: one block per row. Each thread scans a strided slice of the
// row keeping its best (value, index) pair, then the block combines the pairs in a shared-memory
// tree with a __syncthreads per level. Ties go to the smallest index: within a slice the scan
// runs in increasing index order and only a strictly larger value replaces the best; in the tree
// an equal value keeps the smaller index. Launched with grid m, block 256; the tree needs
// blockDim.x to be a power of two <= 1024.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void argmax_rows(const float* x, int64_t* idx, int64_t m, int64_t n) {
  __shared__ float best_val[1024];
  __shared__ int64_t best_idx[1024];
  const int64_t row = blockIdx.x;
  if (row >= m) return;  // uniform across the block, so no thread misses a barrier
  const float* xr = x + row * n;
  const int tid = threadIdx.x;
  const int nt = blockDim.x;

  float bv = -INFINITY;
  int64_t bi = n;  // past the end: loses every tie against a real index
  for (int64_t k = tid; k < n; k += nt) {
    const float v = xr[k];
    if (v > bv || bi == n) {
      bv = v;
      bi = k;
    }
  }
  best_val[tid] = bv;
  best_idx[tid] = bi;
  __syncthreads();
  for (int s = nt / 2; s > 0; s >>= 1) {
    if (tid < s) {
      const float ov = best_val[tid + s];
      const int64_t oi = best_idx[tid + s];
      const float mv = best_val[tid];
      const int64_t mi = best_idx[tid];
      if (ov > mv || (ov == mv && oi < mi) || mi == n) {
        best_val[tid] = ov;
        best_idx[tid] = oi;
      }
    }
    __syncthreads();
  }
  if (tid == 0) idx[row] = best_idx[0];
}
