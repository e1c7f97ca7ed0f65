#include <hip/hip_runtime.h>

// Stream compaction inside each warp with the non-sync __ballot: a selected element's rank
// among the selected lanes before it, and each warp's count. Threads past n exit before the
// vote; lanes missing from a partial last warp vote 0, as on hardware.
__global__ void warp_compact(const int* x, int* rank, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bool keep = x[i] % 3 != 0;
  unsigned long long votes = __ballot(keep);
  unsigned lane = __lane_id();
  unsigned long long before = lane == 0 ? 0ull : (votes << (64 - lane)) >> (64 - lane);
  rank[i] = keep ? __popcll(before) : -1;
  int warps_per_block = (blockDim.x + warpSize - 1) / warpSize;
  // Every lane saw the same ballot, so every lane may write the count.
  count[blockIdx.x * warps_per_block + threadIdx.x / warpSize] = __popcll(votes);
}
