// Diagnostics: every user mistake becomes one, printed clang style with the source line and a
// caret. Message texts live in one table (lang/messages.h).
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lang/messages.h"
#include "lang/source.h"
#include "lang/source_manager.h"

namespace kta::lang {

enum class Severity { note, warning, error };

// One printed diagnostic; notes attach to the error or warning before them.
struct Diagnostic {
  Severity severity = Severity::error;
  Msg id = Msg::none;
  std::string message;
  SourceRange where;
  std::vector<Diagnostic> notes;
};

// Collects diagnostics of a run; prints them clang style; counts errors.
class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(SourceManager& sources) : sources_(sources) {}

  template <typename... Args>
  Diagnostic& report(SourceRange where, Msg id, const Args&... args) {
    return add(where, id, fmt::format(fmt::runtime(message_format(id)), args...));
  }
  // Attaches a note to the last error or warning.
  template <typename... Args>
  void note(SourceRange where, Msg id, const Args&... args) {
    add_note(where, id, fmt::format(fmt::runtime(message_format(id)), args...));
  }

  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  size_t warning_count() const { return warnings_; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  SourceManager& sources() const { return sources_; }
  void clear();

  void print(std::ostream& os, bool color = false) const;
  std::string str(bool color = false) const;
  nlohmann::json to_json() const;

 private:
  Diagnostic& add(SourceRange where, Msg id, std::string message);
  void add_note(SourceRange where, Msg id, std::string message);
  void print_one(std::ostream& os, const Diagnostic& d, bool color) const;

  SourceManager& sources_;
  std::vector<Diagnostic> diags_;
  size_t errors_ = 0;
  size_t warnings_ = 0;
};

// The closest candidate by edit distance, or "" when none is close enough to suggest.
std::string closest_match(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace kta::lang
