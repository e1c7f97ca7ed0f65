// Parsing: the text of one loaded file to its syntax tree, with syntax errors as diagnostics.
#pragma once

#include <cstddef>
#include <optional>

#include "lang/ast.h"
#include "lang/diagnostics.h"

namespace kta::lang {

// Deepest nesting of brackets, calls and prefix operators, and the tallest expression tree, the
// parser accepts; deeper input gets a diagnostic instead of exhausting the stack.
inline constexpr size_t kMaxNesting = 64;
inline constexpr size_t kMaxExprHeight = 256;

// Parses file `file_id` of the diagnostics' SourceManager. nullopt after a syntax error (reported).
std::optional<ast::File> parse_file(uint32_t file_id, DiagnosticEngine& diags);

}  // namespace kta::lang
