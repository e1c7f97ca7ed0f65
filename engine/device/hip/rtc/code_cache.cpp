#include "engine/device/hip/rtc/code_cache.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string_view>

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

// An entry is the fields below, then the HMAC tag of the entry's name and all before it.
std::optional<CachedCode> cache_load(const fs::path& dir, const std::string& key,
                                     std::string* note) {
  const std::string name = key + ".code";
  std::string file;
  if (!ipc::read_whole_file(dir / name, &file)) return std::nullopt;
  std::string error;
  std::optional<ipc::CacheKey> auth = ipc::CacheKey::open(dir, &error);
  const size_t tag = ipc::CacheKey::kTagBytes;
  std::string_view body(file.data(), file.size() >= tag ? file.size() - tag : 0);
  if (!auth || file.size() < tag ||
      !auth->verify(name, body, std::string_view(file).substr(file.size() - tag))) {
    if (note != nullptr)
      *note = "compile cache entry " + name +
              (auth ? " fails authentication" : " cannot be authenticated (" + error + ")") +
              "; recompiled";
    std::error_code ec;
    fs::remove(dir / name, ec);
    return std::nullopt;
  }
  std::istringstream in{std::string(body)};
  std::string magic;
  if (!std::getline(in, magic) || magic != kMagic) return std::nullopt;
  CachedCode c;
  if (!read_field(in, "format", &c.format) || !read_field(in, "lowered", &c.lowered_name) ||
      !read_field(in, "log", &c.log) || !read_field(in, "code", &c.code))
    return std::nullopt;
  return c;
}

void cache_store(const fs::path& dir, const std::string& key, const CachedCode& entry) {
  std::string error;
  std::optional<ipc::CacheKey> auth = ipc::CacheKey::open(dir, &error);
  if (!auth) return;
  std::ostringstream body;
  body << kMagic << '\n';
  write_field(body, "format", entry.format);
  write_field(body, "lowered", entry.lowered_name);
  write_field(body, "log", entry.log);
  write_field(body, "code", entry.code);
  const std::string data = body.str();
  const std::string tag = auth->tag(key + ".code", data);
  if (tag.empty()) return;
  std::error_code ec;
  fs::path tmp = dir / (key + ".tmp." + std::to_string(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << data << tag;
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, dir / (key + ".code"), ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace kta::engine::hip
