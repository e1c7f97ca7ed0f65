// SourceManager: file texts and the line tables that turn byte offsets into lines and columns.
#include "lang/source_manager.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kta::lang {

namespace {

// Whether lexically_normal would return the path unchanged: no empty, "." or ".." components
// (a root slash and a trailing slash are kept by it). POSIX separators only.
bool is_normal(std::string_view s) {
  if constexpr (std::filesystem::path::preferred_separator != '/') return false;
  size_t i = 0;
  if (!s.empty() && s[0] == '/') {
    if (s.size() > 1 && s[1] == '/') return false;
    i = 1;
  }
  while (i < s.size()) {
    size_t j = s.find('/', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view c = s.substr(i, j - i);
    if (c.empty() || c == "." || c == "..") return false;
    i = j + 1;
  }
  return true;
}

}  // namespace

std::filesystem::path normal_path(const std::filesystem::path& p) {
  if (is_normal(p.native())) return p;
  return p.lexically_normal();
}

uint32_t SourceManager::add(std::string name, std::filesystem::path path, std::string text) {
  SourceFile f{std::move(name), std::move(path), std::move(text), {0}};
  const char* data = f.text.data();
  size_t size = f.text.size();
  for (const char* p = data;
       (p = static_cast<const char*>(std::memchr(p, '\n', size - size_t(p - data))));) {
    ++p;
    f.line_starts.push_back(static_cast<uint32_t>(p - data));
  }
  files_.push_back(std::move(f));
  return static_cast<uint32_t>(files_.size());
}

uint32_t SourceManager::add(std::string name, std::filesystem::path path, std::string text,
                            std::vector<uint32_t> line_starts) {
  files_.push_back(
      SourceFile{std::move(name), std::move(path), std::move(text), std::move(line_starts)});
  return static_cast<uint32_t>(files_.size());
}

uint32_t SourceManager::load(const std::filesystem::path& path, std::string name) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(path, ec)) return 0;
  std::string text;
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size >= 0 && in.seekg(0, std::ios::beg)) {
    text.resize(static_cast<size_t>(size));
    in.read(text.data(), size);
    if (in.bad()) return 0;
    text.resize(static_cast<size_t>(in.gcount()));
  } else {  // not seekable: read to the end
    in.clear();
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return 0;
    text = ss.str();
  }
  auto abs = normal_path(std::filesystem::absolute(path, ec));
  return add(name.empty() ? path.string() : std::move(name), abs, std::move(text));
}

std::pair<uint32_t, uint32_t> SourceManager::line_column(uint32_t id, uint32_t offset) const {
  const SourceFile& f = file(id);
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - f.line_starts.begin());
  return {line, offset - f.line_starts[line - 1] + 1};
}

std::string_view SourceManager::line_text(uint32_t id, uint32_t line) const {
  const SourceFile& f = file(id);
  if (line == 0 || line > f.line_starts.size()) return {};
  uint32_t b = f.line_starts[line - 1];
  uint32_t e = line < f.line_starts.size() ? f.line_starts[line] - 1 : uint32_t(f.text.size());
  std::string_view v(f.text.data() + b, e - b);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

SourceRange SourceManager::range(uint32_t id, uint32_t begin, uint32_t end) const {
  auto [line, column] = line_column(id, begin);
  return SourceRange{id, begin, std::max(begin, end), line, column};
}

}  // namespace kta::lang
