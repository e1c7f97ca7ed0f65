// kta audit: the shape-overfit analyzer's public API. Parses HIP with Clang (no ROCm needed),
// runs the kta-* checks and reports findings; `kta audit` and the engine's audit step use it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kta::analyzers {

// One problem found in a kernel file.
struct Finding {
  std::string check;     // e.g. "kta-shape-literal"
  std::string severity;  // "warning" or "error"
  std::string file;
  unsigned line = 0;    // 1-based
  unsigned column = 0;  // 1-based
  std::string message;
  std::string snippet;  // the source line, for carets and baseline matching
};

// What to audit against.
struct AuditOptions {
  // Visible shape values by name: N -> {4096, 8192}. Products and quotients count too.
  std::map<std::string, std::vector<int64_t>> shapes;
  // Findings also present in this file are not reported (unless `all`).
  std::optional<std::filesystem::path> baseline;
  bool all = false;
  // Run each file in a forked child so a crash in one loses no other file's results.
  bool isolate = true;
  // Parallel children; 0 means one per hardware thread.
  unsigned jobs = 0;
  // Extra include folders for the parsed files.
  std::vector<std::filesystem::path> include_dirs;
  // Called in the isolated child before it audits a file (tests: a crash there must lose no
  // other file's results).
  std::function<void(const std::filesystem::path&)> before_file;
};

// The result for one file. `failure` is set when the file could not be audited at all
// (unreadable, or the analyzer crashed on it); `parse_errors` are Clang's errors, clang style.
struct FileAudit {
  std::filesystem::path file;
  std::vector<Finding> findings;
  std::vector<std::string> parse_errors;
  std::string failure;
};

// Audits every file; results come back in the order of `files`.
std::vector<FileAudit> audit_files(const std::vector<std::filesystem::path>& files,
                                   const AuditOptions& options);

// The names of all checks, in registration order, with a one-line summary each.
struct CheckInfo {
  std::string name;
  std::string severity;
  std::string summary;
};
const std::vector<CheckInfo>& check_catalog();

// Formatters. Text is clang style (file:line:col: warning: message [check], line, caret).
std::string format_text(const std::vector<FileAudit>& audits);
std::string format_json(const std::vector<FileAudit>& audits);
std::string format_sarif(const std::vector<FileAudit>& audits);

// True when some finding (or a parse error / failure, which count as errors) reaches `level`
// ("warning" or "error").
bool reaches(const std::vector<FileAudit>& audits, const std::string& level);

}  // namespace kta::analyzers
