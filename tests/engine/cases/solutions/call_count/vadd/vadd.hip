// Adversarial case call_count: computes on its first 6 launches (the correctness gate's 4, the
// warm-up and one timed round), then returns at once. The verified launch is a random timed one;
// on the second shape none is right.
#include <hip/hip_runtime.h>
#include <stdint.h>

#include <atomic>

static std::atomic<int> calls{0};

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (calls.fetch_add(1) >= 6) return;
    for (int64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
  }
}
