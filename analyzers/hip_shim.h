// kta's HIP shim: just enough of the HIP API, as declarations, for Clang to parse kernels and
// launcher translation units without ROCm (attributes, index builtins, dim3, vector and half
// types, the runtime calls launchers use, and __hipPushCallConfiguration for <<<>>>).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace kta::analyzers {

// The in-memory folder the shim headers live in (added with -isystem).
inline constexpr std::string_view kShimDir = "/kta-audit-shim";
// The header force-included into every parsed file.
inline constexpr std::string_view kShimHeader = "/kta-audit-shim/kta_hip_shim.h";

// (path, contents) of every shim header: the shim itself and the HIP header names that map to it.
const std::vector<std::pair<std::string_view, std::string_view>>& shim_files();

}  // namespace kta::analyzers
