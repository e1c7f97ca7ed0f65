#include "engine/device/hip/rtc/code_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/device/device.h"
#include "engine/ipc/cache_key.h"

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

constexpr const char* kMagic = "kta-hip-code 2";

bool read_field(std::istream& in, const char* name, std::string* out) {
  std::string tag;
  size_t n = 0;
  if (!(in >> tag >> n) || tag != name || in.get() != '\n') return false;
  out->resize(n);
  return bool(in.read(out->data(), std::streamsize(n)));
}

void write_field(std::ostream& out, const char* name, const std::string& v) {
  out << name << ' ' << v.size() << '\n';
  out.write(v.data(), std::streamsize(v.size()));
}

}  // namespace

fs::path kernel_cache_dir(const fs::path& dir) { return cache_root(dir) / "hip"; }

std::string source_folder_digest(const fs::path& dir) {
  constexpr size_t kCap = size_t(64) << 20;
  std::vector<std::pair<std::string, fs::path>> files;
  std::error_code ec;
  auto it =
      fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
  size_t total = 0;
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() >= 2) it.disable_recursion_pending();
    std::error_code e;
    if (!it->is_regular_file(e)) continue;
    if ((total += it->file_size(e)) > kCap) return {};
    files.emplace_back(it->path().lexically_relative(dir).string(), it->path());
  }
  if (ec) return {};
  std::sort(files.begin(), files.end());
  // Every name and content with its length first, then SHA-256 (the candidate chooses them).
  std::string all;
  for (const auto& [rel, path] : files) {
    std::string text;
    if (!ipc::read_whole_file(path, &text)) return {};
    all += std::to_string(rel.size()) + ":" + rel + ":" + std::to_string(text.size()) + ":";
    all += text;
  }
  return ipc::sha256_hex(all);
}

std::string encode_code(const CachedCode& entry) {
  std::ostringstream body;
  body << kMagic << '\n';
  write_field(body, "format", entry.format);
  write_field(body, "lowered", entry.lowered_name);
  write_field(body, "log", entry.log);
  write_field(body, "code", entry.code);
  return body.str();
}

std::optional<CachedCode> decode_code(std::string_view bytes) {
  std::istringstream in{std::string(bytes)};
  std::string magic;
  if (!std::getline(in, magic) || magic != kMagic) return std::nullopt;
  CachedCode c;
  if (!read_field(in, "format", &c.format) || !read_field(in, "lowered", &c.lowered_name) ||
      !read_field(in, "log", &c.log) || !read_field(in, "code", &c.code))
    return std::nullopt;
  return c;
}

// An entry is encode_code's fields, then the HMAC tag of the entry's name and all before it.
std::optional<CachedCode> cache_load(const fs::path& dir, const std::string& key,
                                     std::string* note) {
  const std::string name = key + ".code";
  ipc::TaggedEntry e = ipc::load_tagged(dir, name);
  if (!e.rejected.empty() && note != nullptr)
    *note = "compile cache entry " + name + " " + e.rejected + "; recompiled";
  if (!e.bytes) return std::nullopt;
  return decode_code(*e.bytes);
}

void cache_store(const fs::path& dir, const std::string& key, const CachedCode& entry) {
  ipc::store_tagged(dir, key + ".code", encode_code(entry));
}

}  // namespace kta::engine::hip
