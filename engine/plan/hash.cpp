#include "engine/plan/hash.h"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace kta::engine {

namespace {
constexpr uint64_t kPrime = 0x100000001b3ull;
}

ContentHasher& ContentHasher::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    a_ = (a_ ^ c) * kPrime;
    b_ = (b_ ^ static_cast<unsigned char>(c + 0x5b)) * kPrime;
    b_ ^= b_ >> 29;
  }
  return *this;
}

ContentHasher& ContentHasher::add(int64_t v) {
  char buf[8];
  for (int i = 0; i < 8; ++i)
    buf[i] = static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff);
  return add(std::string_view(buf, 8));
}

ContentHasher& ContentHasher::field(std::string_view name, std::string_view value) {
  add(static_cast<int64_t>(name.size()));
  add(name);
  add(static_cast<int64_t>(value.size()));
  return add(value);
}

ContentHasher& ContentHasher::file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return field("missing-file", path.filename().string());
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return field("file", bytes);
}

std::string ContentHasher::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a_),
                static_cast<unsigned long long>(b_));
  return buf;
}

std::string hash_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "missing";
  return ContentHasher().file(path).hex();
}

}  // namespace kta::engine
