// Adversarial case memo_pointer: after it has computed an output at some address, it skips
// every later launch on the same buffers (memoization by pointer). Timed launches reuse their
// buffers with fresh inputs and a poisoned output, so the skipped launches leave poison: the
// verified launch is wrong.
#include <hip/hip_runtime.h>
#include <stdint.h>

#include <mutex>
#include <set>

static std::mutex seen_mutex;
static std::set<const void*> seen;

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    std::lock_guard<std::mutex> lock(seen_mutex);
    if (!seen.insert(z).second) return;  // this output buffer was computed before
    for (int64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
  }
}
