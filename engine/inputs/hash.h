// A fast, platform-independent 64-bit hash (multiply-xorshift over little-endian 8-byte words).
// Not cryptographic: it keys caches and detects accidental or adversarial-but-blind mutation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kta::engine {

uint64_t hash_bytes(const void* data, size_t size, uint64_t seed = 0);
inline uint64_t hash_string(std::string_view s, uint64_t seed = 0) {
  return hash_bytes(s.data(), s.size(), seed);
}
// Combines a value into a running hash (order-sensitive).
uint64_t hash_mix(uint64_t h, uint64_t v);

}  // namespace kta::engine
