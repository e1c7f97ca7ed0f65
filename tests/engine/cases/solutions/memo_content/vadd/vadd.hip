// Adversarial case memo_content: remembers outputs by a hash of a few input elements and copies
// them back when it sees the same inputs again (on the cpu device every block runs in this
// process, so a static table persists across launches). Timed launches never see the same
// inputs twice: it always misses and gains nothing.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <string.h>

#include <map>
#include <mutex>
#include <vector>

static std::mutex memo_mutex;
static std::map<uint64_t, std::vector<float>> memo;

static uint64_t sparse_hash(const float* x, const float* y, int64_t n) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)n;
  for (int64_t k = 0; k < 8 && n > 0; ++k) {
    int64_t i = (k * 7919) % n;
    uint32_t a, b;
    memcpy(&a, &x[i], 4);
    memcpy(&b, &y[i], 4);
    h = (h ^ a) * 1099511628211ull;
    h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    uint64_t h = sparse_hash(x, y, n);
    std::lock_guard<std::mutex> lock(memo_mutex);
    auto it = memo.find(h);
    if (it != memo.end() && (int64_t)it->second.size() == n) {
      memcpy(z, it->second.data(), n * sizeof(float));
      return;
    }
    std::vector<float> out(n);
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
    memcpy(z, out.data(), n * sizeof(float));
    memo[h] = out;
    return;
  }
  // Other threads wait for nothing: block 0's first thread does the whole output.
}
