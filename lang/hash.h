// FNV-1a 64: content hashes of tasks and seeds of held-out generators.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kta::lang {

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

inline uint64_t fnv1a64(std::string_view data, uint64_t h = kFnvOffset) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hex64(uint64_t v);

}  // namespace kta::lang
