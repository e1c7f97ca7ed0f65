#include <hip/hip_runtime.h>

// Per warp: ballot count of positive values, any negative, all finite.
__global__ void warp_vote(const int* x, int* count, int* any_neg, int* all_small) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long b = __ballot(x[i] > 0);
  int a = __any_sync(__activemask(), x[i] < 0);
  int s = __all(x[i] < 100);
  if (threadIdx.x % warpSize == 0) {
    int w = i / warpSize;
    count[w] = __popcll(b);
    any_neg[w] = a;
    all_small[w] = s;
  }
}
