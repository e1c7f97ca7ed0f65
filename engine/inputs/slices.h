// Host work over the elements of a large tensor on all cores (drawing inputs, comparing outputs):
// [0, n) split into consecutive slices, one thread each, the caller waiting for all of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace kta::engine {

// How many slices of at least `min_per_slice` elements (but one at least, the cores at most).
inline size_t slice_count(size_t n, size_t min_per_slice) {
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<size_t>((n + min_per_slice - 1) / min_per_slice, 1, cores);
}

// Calls fn(i, begin, end) for slice i of `count` over [0, n); on this thread when count is 1.
template <class Fn>
void for_slices(size_t n, size_t count, Fn&& fn) {
  if (count <= 1) {
    fn(size_t{0}, size_t{0}, n);
    return;
  }
  size_t chunk = (n + count - 1) / count;
  std::vector<std::thread> pool;
  for (size_t i = 0; i < count; ++i) {
    size_t begin = std::min(n, i * chunk), end = std::min(n, begin + chunk);
    pool.emplace_back([&fn, i, begin, end] { fn(i, begin, end); });
  }
  for (auto& t : pool) t.join();
}

}  // namespace kta::engine
