// A small, stable content hasher for plan keys: identical work gets an identical key on every
// run and machine, so `kta eval --resume` recognizes finished steps. Not cryptographic: the run
// folder is not agent-writable, so collisions need only be unlikely, not infeasible.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace kta::engine {

// Two independent 64-bit FNV-1a lanes fed the same bytes, printed as 32 hex digits.
class ContentHasher {
 public:
  ContentHasher& add(std::string_view bytes);
  ContentHasher& add(int64_t v);
  // A field boundary, so ("ab","c") and ("a","bc") hash differently.
  ContentHasher& field(std::string_view name, std::string_view value);
  // The file's bytes, or a marker naming it as missing.
  ContentHasher& file(const std::filesystem::path& path);
  std::string hex() const;

 private:
  uint64_t a_ = 0xcbf29ce484222325ull;
  uint64_t b_ = 0x84222325cbf29ce4ull;
};

// Hash of a whole file (32 hex digits); "missing" when it cannot be read.
std::string hash_file(const std::filesystem::path& path);

}  // namespace kta::engine
