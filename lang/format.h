// The formatter: canonical, idempotent layout of a .kta file that keeps every comment.
#pragma once

#include <optional>
#include <string>

#include "lang/ast.h"
#include "lang/diagnostics.h"

namespace kta::lang {

// Lines wrap after a comma past this column (long value and parameter lists).
inline constexpr size_t kFormatWidth = 100;

// Formats a parsed file; `source` is the text it was parsed from (for comments and blank lines).
std::string format_file(const ast::File& file, std::string_view source);

// Parses and formats a loaded file; nullopt after a syntax error (reported).
std::optional<std::string> format_source(uint32_t file_id, DiagnosticEngine& diags);

// A unified diff (three lines of context) from `before` to `after`, headed `--- name` and
// `+++ name (formatted)`: what `kta fmt --check` shows of a file that is not formatted.
std::string format_diff(const std::string& name, std::string_view before, std::string_view after);

// The canonical text of an expression.
std::string format_expr(const ast::Expr& e);

}  // namespace kta::lang
