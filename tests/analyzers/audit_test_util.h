// Helpers for the analyzer tests: audit a snippet of HIP written to a temporary file.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "analyzers/audit.h"

namespace kta::analyzers::testing_util {

inline std::filesystem::path temp_dir() {
  static const std::filesystem::path dir = [] {
    auto d =
        std::filesystem::path(::testing::TempDir()) / ("kta_audit_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

inline std::filesystem::path write_temp(const std::string& code, const std::string& name = "") {
  static std::atomic<int> counter{0};
  auto path = temp_dir() / (name.empty() ? "snippet_" + std::to_string(counter++) + ".hip" : name);
  std::ofstream(path) << code;
  return path;
}

inline std::map<std::string, std::vector<int64_t>> default_shapes() {
  return {{"N", {4096, 1048576}}, {"M", {128, 512}}, {"K", {64}}};
}

// Audits `code` in-process with every finding reported (no baseline).
inline FileAudit audit_code(
    const std::string& code,
    const std::map<std::string, std::vector<int64_t>>& shapes = default_shapes()) {
  AuditOptions options;
  options.shapes = shapes;
  options.all = true;
  options.isolate = false;
  return audit_files({write_temp(code)}, options).at(0);
}

inline int count_check(const FileAudit& a, const std::string& check) {
  int n = 0;
  for (const Finding& f : a.findings) n += f.check == check;
  return n;
}

// Every finding of `check`, in report order, as "line:column: message".
inline std::vector<std::string> findings_of(const FileAudit& a, const std::string& check) {
  std::vector<std::string> out;
  for (const Finding& f : a.findings)
    if (f.check == check)
      out.push_back(std::to_string(f.line) + ":" + std::to_string(f.column) + ": " + f.message);
  return out;
}

inline std::string describe(const FileAudit& a) {
  std::string s = format_text({a});
  return s;
}

}  // namespace kta::analyzers::testing_util
