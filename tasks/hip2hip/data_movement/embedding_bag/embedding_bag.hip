// Baseline for the embedding_bag task: one block of 128 threads per bag. For each of the bag's L
// indices in turn, every thread adds the row's elements d = tid, tid + 128, ... to its f32
// accumulators, so each row read is coalesced across the block; the index is re-read from
// global memory by every thread (a broadcast load). Launched with grid B, block 128; any
// blockDim.x works.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void embedding_bag(const float* weight, const int64_t* indices, float* out, int64_t B,
                              int64_t L, int64_t D, int64_t V) {
  const int64_t b = blockIdx.x;
  if (b >= B) return;
  const int64_t* bag = indices + b * L;
  for (int64_t d = threadIdx.x; d < D; d += blockDim.x) {
    float sum = 0.0f;
    for (int64_t l = 0; l < L; ++l) sum += weight[bag[l] * D + d];
    out[b * D + d] = sum;
  }
}
