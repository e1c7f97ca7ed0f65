// The project files a HIP source includes, made part of its build: every `#include "..."` that
// names a file relative to the includer is rewritten like the source itself (chevron launches,
// dynamic shared memory) and staged beside the translation unit under a name of its own, and
// the directive points at that copy. Each copy starts with a #line naming the user's file, so
// diagnostics and __FILE__ keep the user's names and line numbers.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/device/cpu/hip_rewrite.h"

namespace kta::engine::cpu {

struct StagedInclude {
  std::string name;   // the copy's file name in the build folder
  std::string shown;  // the user's file, relative to the source's folder
  std::string text;   // rewritten, after its #line
};

struct StagedSource {
  RewriteResult main;  // the source, rewritten, its includes pointing at the copies
  std::vector<StagedInclude> includes;
  bool synchronizes = false;        // the source or an include uses a barrier or collective
  std::vector<std::string> errors;  // "FILE:LINE: message", the includes' rewrite errors
};

// Rewrites `text`, the source at `path`, and the project files it includes (transitively).
StagedSource stage_source(const std::filesystem::path& path, std::string_view text);

}  // namespace kta::engine::cpu
