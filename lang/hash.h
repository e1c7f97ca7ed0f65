// kta's one home for hashing, header-only so that every library (the hip plugin and its rtc
// library included, which link nothing of lang) can use it. None of these is cryptographic:
// run folders and caches are not agent-writable, so collisions need only be unlikely.
//   fnv1a64        FNV-1a 64: content hashes of tasks, seeds of held-out generators
//   ContentHasher  128 bits, 32 hex digits: plan and step keys, compiled-code cache keys
//   hash_bytes     fast 64-bit hash of bulk bytes: tensor digests, seeds of drawn inputs
// Each value is stable across runs and machines; golden files and stored runs depend on it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace kta::lang {

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
inline constexpr uint64_t kFnvPrime = 0x100000001b3ull;

inline uint64_t fnv1a64(std::string_view data, uint64_t h = kFnvOffset) {
  for (unsigned char c : data) {
    h ^= c;
    h *= kFnvPrime;
  }
  return h;
}

// 16 lowercase hex digits.
inline std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Two independent 64-bit FNV-1a lanes fed the same bytes (the second offset, shifted and
// xorshifted), printed as 32 hex digits: identical work gets an identical key on every run and
// machine, so `kta eval --resume` recognizes finished steps.
class ContentHasher {
 public:
  ContentHasher& add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      a_ = (a_ ^ c) * kFnvPrime;
      b_ = (b_ ^ static_cast<unsigned char>(c + 0x5b)) * kFnvPrime;
      b_ ^= b_ >> 29;
    }
    return *this;
  }
  // Eight little-endian bytes.
  ContentHasher& add(int64_t v) {
    char buf[8];
    for (int i = 0; i < 8; ++i)
      buf[i] = static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff);
    return add(std::string_view(buf, 8));
  }
  // A field boundary, so ("ab","c") and ("a","bc") hash differently.
  ContentHasher& field(std::string_view name, std::string_view value) {
    add(static_cast<int64_t>(name.size()));
    add(name);
    add(static_cast<int64_t>(value.size()));
    return add(value);
  }
  // The file's bytes, or a marker naming it as missing.
  ContentHasher& file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return field("missing-file", path.filename().string());
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return field("file", bytes);
  }
  std::string hex() const { return hex64(a_) + hex64(b_); }

 private:
  uint64_t a_ = kFnvOffset;
  uint64_t b_ = 0x84222325cbf29ce4ull;
};

// Hash of a whole file (32 hex digits); "missing" when it cannot be read.
inline std::string hash_file(const std::filesystem::path& path) {
  if (!std::ifstream(path, std::ios::binary)) return "missing";
  return ContentHasher().file(path).hex();
}

namespace hash_detail {

inline constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ull;
inline constexpr uint64_t kMul2 = 0xbf58476d1ce4e5b9ull;
inline constexpr uint64_t kMul3 = 0x94d049bb133111ebull;

inline uint64_t finalize(uint64_t z) {  // splitmix64's finalizer: full avalanche
  z = (z ^ (z >> 30)) * kMul2;
  z = (z ^ (z >> 27)) * kMul3;
  return z ^ (z >> 31);
}

inline uint64_t load_le64(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

}  // namespace hash_detail

// Combines a value into a running hash (order-sensitive).
inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  return hash_detail::finalize(h ^ (v * hash_detail::kMul1) ^ (h << 6) ^ (h >> 2));
}

// Multiply-xorshift over little-endian 8-byte words, the same on every platform.
inline uint64_t hash_bytes(const void* data, size_t size, uint64_t seed = 0) {
  using namespace hash_detail;
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

inline uint64_t hash_string(std::string_view s, uint64_t seed = 0) {
  return hash_bytes(s.data(), s.size(), seed);
}

}  // namespace kta::lang
