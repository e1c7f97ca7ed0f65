// Formats of a Comparison: a terminal table, Markdown, and JSON.
#pragma once

#include <string>

#include "engine/compare/comparison.h"

namespace kta::engine {

std::string format_comparison_text(const Comparison& c);
std::string format_comparison_md(const Comparison& c);
std::string comparison_json_text(const Comparison& c);  // nlohmann::json text, 2-space indent

}  // namespace kta::engine
