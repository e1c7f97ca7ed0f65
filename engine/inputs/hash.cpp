#include "engine/inputs/hash.h"

#include <bit>
#include <cstring>

namespace kta::engine {

namespace {

constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kMul2 = 0xbf58476d1ce4e5b9ull;
constexpr uint64_t kMul3 = 0x94d049bb133111ebull;

uint64_t finalize(uint64_t z) {  // splitmix64's finalizer: full avalanche
  z = (z ^ (z >> 30)) * kMul2;
  z = (z ^ (z >> 27)) * kMul3;
  return z ^ (z >> 31);
}

uint64_t load_le64(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

}  // namespace

uint64_t hash_mix(uint64_t h, uint64_t v) {
  return finalize(h ^ (v * kMul1) ^ (h << 6) ^ (h >> 2));
}

uint64_t hash_bytes(const void* data, size_t size, uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  // Four independent lanes keep the multiplier pipeline busy (~several GB/s on one core).
  uint64_t lane[4] = {seed ^ kMul1, seed ^ kMul2, seed ^ kMul3, seed + size};
  size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    for (int k = 0; k < 4; ++k) {
      uint64_t w = load_le64(p + i + 8 * k);
      lane[k] = (lane[k] ^ (w * kMul2)) * kMul1;
      lane[k] ^= lane[k] >> 29;
    }
  }
  uint64_t h = finalize(lane[0]) ^ std::rotl(finalize(lane[1]), 17) ^
               std::rotl(finalize(lane[2]), 31) ^ std::rotl(finalize(lane[3]), 47);
  for (; i + 8 <= size; i += 8) h = hash_mix(h, load_le64(p + i));
  if (i < size) {
    unsigned char tail[8] = {};
    std::memcpy(tail, p + i, size - i);
    h = hash_mix(h, load_le64(tail) ^ (uint64_t{size - i} << 59));
  }
  return finalize(h ^ size);
}

}  // namespace kta::engine
