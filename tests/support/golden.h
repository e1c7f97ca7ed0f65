// Golden files: expected output checked in beside a test and compared in full. Every golden test
// reads KTA_UPDATE_GOLDEN through here: set (and not "0"), each expect_golden rewrites its file
// with what the test produced, so `KTA_UPDATE_GOLDEN=1 ctest ...` then `git diff` reviews a change.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <source_location>
#include <sstream>
#include <string>
#include <string_view>

namespace kta::test {

inline bool update_golden() {
  const char* v = std::getenv("KTA_UPDATE_GOLDEN");
  return v != nullptr && *v != 0 && std::string_view(v) != "0";
}

// `text` must equal the whole of the file at `path`; when updating, the file is written first.
// Failures name the caller's line and the file.
inline void expect_golden(const std::filesystem::path& path, const std::string& text,
                          std::source_location where = std::source_location::current()) {
  ::testing::ScopedTrace trace(where.file_name(), static_cast<int>(where.line()),
                               "golden file " + path.string());
  if (update_golden()) {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file; write it with KTA_UPDATE_GOLDEN=1";
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), text)
      << "regenerate with KTA_UPDATE_GOLDEN=1 if the change is intended, then review the diff";
}

}  // namespace kta::test
