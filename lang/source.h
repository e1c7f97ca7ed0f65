// Source files and ranges: every AST node and diagnostic points into a SourceFile.
#pragma once

#include <cstdint>

namespace kta::lang {

// A half-open byte range in one source file, with the 1-based line/column of its start.
struct SourceRange {
  uint32_t file = 0;   // index into the SourceManager; 0 = no location
  uint32_t begin = 0;  // byte offsets
  uint32_t end = 0;
  uint32_t line = 0;
  uint32_t column = 0;
};

}  // namespace kta::lang
