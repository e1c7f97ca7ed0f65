// SourceManager: owns every loaded .kta file so that ranges and diagnostics can show their text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "lang/source.h"

namespace kta::lang {

// One loaded file: its path (as given, for messages), absolute path, text and line starts.
struct SourceFile {
  std::string name;
  std::filesystem::path path;
  std::string text;
  std::vector<uint32_t> line_starts;
};

// p.lexically_normal(), skipping the work (and its allocations) when p is already normal.
std::filesystem::path normal_path(const std::filesystem::path& p);

// Owns loaded files; maps a SourceRange to its file name, line and column, and line text.
class SourceManager {
 public:
  // Adds a file's text; returns its id (ids start at 1; 0 means "no location").
  uint32_t add(std::string name, std::filesystem::path path, std::string text);
  // The same with the line starts already known (a cached file's).
  uint32_t add(std::string name, std::filesystem::path path, std::string text,
               std::vector<uint32_t> line_starts);
  // Reads a file from disk; returns 0 when it cannot be read. `name` is what messages call it
  // (default: the path as given).
  uint32_t load(const std::filesystem::path& path, std::string name = "");
  const SourceFile& file(uint32_t id) const { return files_.at(id - 1); }
  size_t size() const { return files_.size(); }
  // The 1-based line and column of a byte offset.
  std::pair<uint32_t, uint32_t> line_column(uint32_t file, uint32_t offset) const;
  // The text of a 1-based line, without its newline.
  std::string_view line_text(uint32_t file, uint32_t line) const;
  // A range over [begin, end) of a file with its line and column filled in.
  SourceRange range(uint32_t file, uint32_t begin, uint32_t end) const;

 private:
  std::vector<SourceFile> files_;
};

}  // namespace kta::lang
