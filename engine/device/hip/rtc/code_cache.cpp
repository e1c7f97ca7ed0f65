#include "engine/device/hip/rtc/code_cache.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

constexpr const char* kMagic = "kta-hip-code 1";

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

fs::path kernel_cache_dir(const fs::path& dir) {
  if (!dir.empty()) return dir / "hip";
  if (const char* d = std::getenv("KTA_CACHE_DIR"); d && *d) return fs::path(d) / "hip";
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "kta" / "hip";
  if (const char* d = std::getenv("HOME"); d && *d) return fs::path(d) / ".cache" / "kta" / "hip";
  return fs::temp_directory_path() / "kta-cache" / "hip";
}

std::optional<CachedCode> cache_load(const fs::path& dir, const std::string& key) {
  std::ifstream in(dir / (key + ".code"), std::ios::binary);
  if (!in) return std::nullopt;
  std::string magic;
  if (!std::getline(in, magic) || magic != kMagic) return std::nullopt;
  CachedCode c;
  if (!read_field(in, "format", &c.format) || !read_field(in, "lowered", &c.lowered_name) ||
      !read_field(in, "log", &c.log) || !read_field(in, "code", &c.code))
    return std::nullopt;
  return c;
}

void cache_store(const fs::path& dir, const std::string& key, const CachedCode& entry) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  fs::path tmp = dir / (key + ".tmp." + std::to_string(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << kMagic << '\n';
    write_field(out, "format", entry.format);
    write_field(out, "lowered", entry.lowered_name);
    write_field(out, "log", entry.log);
    write_field(out, "code", entry.code);
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
