// Helpers for the front-end tests: temporary trees of .kta files and loading with a fixture stdlib.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "lang/load.h"

namespace kta::lang::test {

// A fresh temporary folder, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  // Writes `text` to `rel` (folders created); returns the full path.
  std::filesystem::path write(const std::string& rel, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

// Load options that use the test fixture stdlib and ignore the environment.
LoadOptions fixture_options();

// Loads a file; the printed diagnostics go to `out`.
std::optional<Loaded> load(const std::filesystem::path& file, std::string& out,
                           LoadOptions options = fixture_options());

// A valid hip2hip task with the given extra statements inserted before the closing brace.
std::string task_text(const std::string& extra = "",
                      const std::string& shapes = "shapes visible { N in [1024, 4096] }");

}  // namespace kta::lang::test
