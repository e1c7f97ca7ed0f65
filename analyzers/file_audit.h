// Auditing one file in-process: parse it with Clang (HIP, host side, kta's shim instead of
// ROCm), run every check over the (possibly partial) AST, collect Clang's errors.
#pragma once

#include <filesystem>
#include <vector>

#include "analyzers/audit.h"
#include "analyzers/shapes.h"

namespace kta::analyzers {

// Raw findings: no suppressions or baseline applied yet.
FileAudit audit_one_file(const std::filesystem::path& file, const ShapeSet& shapes,
                         const std::vector<std::filesystem::path>& include_dirs);

}  // namespace kta::analyzers
