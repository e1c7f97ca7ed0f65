// Diagnostics: collection, clang-style printing, JSON, and "did you mean" suggestions.
#include "lang/diagnostics.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace kta::lang {

Diagnostic& DiagnosticEngine::add(SourceRange where, Msg id, std::string message) {
  Severity sev = message_severity(id);
  if (sev == Severity::error) ++errors_;
  if (sev == Severity::warning) ++warnings_;
  diags_.push_back(Diagnostic{sev, id, std::move(message), where, {}});
  return diags_.back();
}

void DiagnosticEngine::add_note(SourceRange where, Msg id, std::string message) {
  Diagnostic n{Severity::note, id, std::move(message), where, {}};
  if (diags_.empty())
    diags_.push_back(std::move(n));
  else
    diags_.back().notes.push_back(std::move(n));
}

void DiagnosticEngine::clear() {
  diags_.clear();
  errors_ = warnings_ = 0;
}

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "error";
}

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::note:
      return "\033[1;36m";
    case Severity::warning:
      return "\033[1;35m";
    case Severity::error:
      return "\033[1;31m";
  }
  return "";
}

}  // namespace

void DiagnosticEngine::print_one(std::ostream& os, const Diagnostic& d, bool color) const {
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  bool located = d.where.file != 0 && d.where.file <= sources_.size();
  if (located) {
    os << bold << sources_.file(d.where.file).name << ':' << d.where.line << ':' << d.where.column
       << ": " << reset;
  } else {
    os << bold << "kta: " << reset;
  }
  os << (color ? severity_color(d.severity) : "") << severity_name(d.severity) << ':' << reset
     << bold << ' ' << d.message << reset << '\n';
  if (located) {
    std::string_view line = sources_.line_text(d.where.file, d.where.line);
    os << line << '\n';
    std::string marker;
    uint32_t col = d.where.column - 1;
    for (uint32_t i = 0; i < col && i < line.size(); ++i) marker += line[i] == '\t' ? '\t' : ' ';
    marker += '^';
    uint32_t line_end_offset =
        d.where.begin + static_cast<uint32_t>(line.size() - std::min<size_t>(col, line.size()));
    uint32_t end = std::min(d.where.end, line_end_offset);
    for (uint32_t i = d.where.begin + 1; i < end; ++i) marker += '~';
    os << (color ? "\033[1;32m" : "") << marker << reset << '\n';
  }
  for (const Diagnostic& n : d.notes) print_one(os, n, color);
}

void DiagnosticEngine::print(std::ostream& os, bool color) const {
  for (const Diagnostic& d : diags_) print_one(os, d, color);
}

std::string DiagnosticEngine::str(bool color) const {
  std::ostringstream ss;
  print(ss, color);
  return ss.str();
}

namespace {

nlohmann::json json_of(const Diagnostic& d, const SourceManager& sm) {
  nlohmann::json j;
  j["severity"] = severity_name(d.severity);
  j["id"] = std::string(message_name(d.id));
  j["message"] = d.message;
  if (d.where.file != 0 && d.where.file <= sm.size()) {
    j["file"] = sm.file(d.where.file).name;
    j["line"] = d.where.line;
    j["column"] = d.where.column;
    auto [end_line, end_column] = sm.line_column(d.where.file, d.where.end);
    j["end_line"] = end_line;
    j["end_column"] = end_column;
  }
  if (!d.notes.empty()) {
    j["notes"] = nlohmann::json::array();
    for (const Diagnostic& n : d.notes) j["notes"].push_back(json_of(n, sm));
  }
  return j;
}

// Optimal string alignment distance: insertions, deletions, substitutions and transpositions,
// ignoring case.
size_t edit_distance(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  size_t w = b.size() + 1;
  std::vector<size_t> d((a.size() + 1) * w);
  for (size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      size_t v =
          std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        v = std::min(v, d[(i - 2) * w + j - 2] + 1);
      d[i * w + j] = v;
    }
  }
  return d[a.size() * w + b.size()];
}

}  // namespace

nlohmann::json DiagnosticEngine::to_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (const Diagnostic& d : diags_) out.push_back(json_of(d, sources_));
  return out;
}

std::string closest_match(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(1, name.size() / 3) + 1;
  for (const std::string& c : candidates) {
    if (c == name || c.empty()) continue;
    size_t d = edit_distance(name, c);
    if (d < best_distance && d < std::max(name.size(), c.size())) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace kta::lang
