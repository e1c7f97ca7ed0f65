// Source-to-source rewriting that makes a HIP translation unit plain C++ for the cpu device:
// `k<<<grid, block, shmem, stream>>>(args)` becomes a call of kta_rt::launch_chevron and
// `extern __shared__ T name[];` becomes a view of the block's dynamic shared memory. A small
// lexer (strings, raw strings, character literals and comments are skipped) finds the
// constructs; every rewrite keeps the line structure so diagnostics point at the user's lines.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kta::engine::cpu {

struct RewriteResult {
  std::string text;
  bool synchronizes = false;        // uses __syncthreads or a warp collective: needs fibers
  std::vector<std::string> errors;  // "LINE: message"; non-empty means the source is malformed
  std::vector<std::string> quoted_includes;  // #include "..." targets, as written
};

// For the target of an `#include "..."`, the name to include instead, or empty to keep it.
using IncludeTarget = std::function<std::string(std::string_view)>;

RewriteResult rewrite_hip_source(std::string_view source, const IncludeTarget& include = {});

// Parameter names of the __global__ function `entry`, in order; empty when not found.
std::vector<std::string> kernel_parameter_names(std::string_view source, std::string_view entry);

// `text` as a C string literal on one line: whitespace runs become one space, quotes and
// backslashes are escaped.
std::string one_line_literal(std::string_view text);

// True when `source` declares or mentions the identifier `name`.
bool mentions_identifier(std::string_view source, std::string_view name);

}  // namespace kta::engine::cpu
