// The one launch-geometry check, shared by the cpu device's scheduler and the hip device: what a
// GPU refuses, with the same message on every device. Header-only (the cpu runtime library and
// the hip plugin both include it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kta_geometry {

struct Extent {
  uint32_t x = 1, y = 1, z = 1;
};

inline std::string format(Extent d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

// Empty when the launch is valid, else why. `static_shared` is the kernel's static shared
// memory where the caller knows it (0 otherwise: the device checks it at launch).
inline std::string error(Extent g, Extent b, size_t dynamic_shared, size_t static_shared,
                         uint64_t max_threads_per_block, size_t shared_limit) {
  if (g.x == 0 || g.y == 0 || g.z == 0)
    return "invalid geometry: grid " + format(g) + " has a zero dimension";
  if (b.x == 0 || b.y == 0 || b.z == 0)
    return "invalid geometry: block " + format(b) + " has a zero dimension";
  uint64_t threads = uint64_t(b.x) * b.y * b.z;
  if (threads > max_threads_per_block)
    return "invalid geometry: block " + format(b) + " has " + std::to_string(threads) +
           " threads, the limit is " + std::to_string(max_threads_per_block);
  if (b.x > 1024 || b.y > 1024 || b.z > 1024)
    return "invalid geometry: block " + format(b) +
           " exceeds the per-dimension limit (1024,1024,1024)";
  if (g.x > 2147483647u || g.y > 65535u || g.z > 65535u)
    return "invalid geometry: grid " + format(g) + " exceeds the limit (2147483647,65535,65535)";
  size_t shared = static_shared + dynamic_shared;
  if (shared > shared_limit)
    return "shared memory over limit: " + std::to_string(shared) + " bytes per block (" +
           std::to_string(static_shared) + " static + " + std::to_string(dynamic_shared) +
           " dynamic), the limit is " + std::to_string(shared_limit);
  return {};
}

}  // namespace kta_geometry
