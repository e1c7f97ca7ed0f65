// Source-to-source rewriting that makes a HIP translation unit plain C++ for the cpu device:
// `k<<<grid, block, shmem, stream>>>(args)` becomes a call of kta_rt::launch_chevron and
// `extern __shared__ T name[];` becomes a view of the block's dynamic shared memory. A small
// lexer (strings, raw strings, character literals and comments are skipped) finds the
// constructs; every rewrite keeps the line structure so diagnostics point at the user's lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kta::engine::cpu {

struct RewriteResult {
  std::string text;
  bool synchronizes = false;        // uses __syncthreads or a warp collective: needs fibers
  std::vector<std::string> errors;  // "LINE: message"; non-empty means the source is malformed
  std::vector<std::string> quoted_includes;  // #include "..." targets, for the cache key
};

RewriteResult rewrite_hip_source(std::string_view source);

// Parameter names of the __global__ function `entry`, in order; empty when not found.
std::vector<std::string> kernel_parameter_names(std::string_view source, std::string_view entry);

// True when `source` declares or mentions the identifier `name`.
bool mentions_identifier(std::string_view source, std::string_view name);

}  // namespace kta::engine::cpu
