#include "engine/device/cpu/include_staging.h"

#include <map>

#include "engine/ipc/cache_key.h"

namespace fs = std::filesystem;

namespace kta::engine::cpu {
namespace {

// More project includes than any real source has; a guard against generated include chains.
constexpr size_t kMaxIncludes = 256;

class Stager {
 public:
  explicit Stager(fs::path root) : root_(std::move(root)) {}

  // Rewrites the text of a file in `dir`; its quoted includes are staged first.
  RewriteResult rewrite(const fs::path& dir, std::string_view text) {
    return rewrite_hip_source(text, [this, dir](std::string_view target) {
      std::error_code ec;
      fs::path file = fs::weakly_canonical(dir / target, ec);
      return ec || !fs::is_regular_file(file, ec) ? std::string() : stage(file);
    });
  }

  StagedSource out;

 private:
  // The staged name of `file`; staged once however often it is included, so include guards and
  // #pragma once work as on the original.
  std::string stage(const fs::path& file) {
    if (auto it = names_.find(file); it != names_.end()) return it->second;
    std::string text;
    if (names_.size() >= kMaxIncludes || !ipc::read_whole_file(file, &text)) return {};
    const std::string name =
        "kta-include-" + std::to_string(names_.size()) + "-" + file.filename().string();
    names_.emplace(file, name);  // before rewriting: an include cycle ends at this name
    const size_t slot = out.includes.size();
    out.includes.push_back({name, file.lexically_relative(root_).generic_string(), {}});
    RewriteResult r = rewrite(file.parent_path(), text);
    const std::string& shown = out.includes[slot].shown;
    for (const std::string& e : r.errors) out.errors.push_back(shown + ":" + e);
    out.synchronizes = out.synchronizes || r.synchronizes;
    out.includes[slot].text = "#line 1 " + one_line_literal(shown) + "\n" + r.text;
    return name;
  }

  fs::path root_;
  std::map<fs::path, std::string> names_;
};

}  // namespace

StagedSource stage_source(const fs::path& path, std::string_view text) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(path, ec).parent_path();
  if (ec) dir = path.parent_path();
  Stager s(dir);
  RewriteResult main = s.rewrite(dir, text);
  s.out.synchronizes = s.out.synchronizes || main.synchronizes;
  s.out.main = std::move(main);
  return std::move(s.out);
}

}  // namespace kta::engine::cpu
