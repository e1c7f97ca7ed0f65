// The report formats of `kta audit`: clang-style text, JSON and SARIF 2.1.0.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "analyzers/audit.h"
#include "analyzers/audit_json.h"

namespace kta::analyzers {
namespace {

using nlohmann::json;

constexpr const char* kParseErrorRule = "clang-diagnostic-error";
constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";

#ifndef KTA_ANALYZER_VERSION
#define KTA_ANALYZER_VERSION "0"
#endif

struct Counts {
  size_t errors = 0, warnings = 0;
};

Counts count(const std::vector<FileAudit>& audits) {
  Counts c;
  for (const FileAudit& a : audits) {
    c.errors += a.parse_errors.size() + (a.failure.empty() ? 0 : 1);
    for (const Finding& f : a.findings) (f.severity == "error" ? c.errors : c.warnings)++;
  }
  return c;
}

// A caret under column `column` of `line`, keeping its tabs so the caret lines up.
std::string caret_line(const std::string& line, unsigned column) {
  std::string prefix;
  for (size_t i = 0; i + 1 < column && i < line.size(); ++i) prefix += line[i] == '\t' ? '\t' : ' ';
  return prefix + "^";
}

// `file:12:3: error: ...` -> (file, 12, 3, message); parse errors are stored clang style.
struct ParsedError {
  std::string file;
  unsigned line = 0, column = 0;
  std::string message;
};

ParsedError parse_error_text(const std::string& text, const std::string& fallback_file) {
  ParsedError p{fallback_file, 0, 0, text};
  auto marker = text.find(": error: ");
  size_t skip = 9;
  if (marker == std::string::npos) {
    marker = text.find(": fatal error: ");
    skip = 15;
  }
  if (marker == std::string::npos) return p;
  std::string where = text.substr(0, marker);
  p.message = text.substr(marker + skip);
  auto c2 = where.rfind(':');
  auto c1 = c2 == std::string::npos ? std::string::npos : where.rfind(':', c2 - 1);
  if (c1 == std::string::npos) return p;
  try {
    p.line = static_cast<unsigned>(std::stoul(where.substr(c1 + 1, c2 - c1 - 1)));
    p.column = static_cast<unsigned>(std::stoul(where.substr(c2 + 1)));
    p.file = where.substr(0, c1);
  } catch (const std::exception&) {
    p.line = p.column = 0;
  }
  return p;
}

// SARIF wants URIs: keep relative paths relative, make absolute ones file:// URIs.
std::string to_uri(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) ||
        std::string_view("-._~/").find(static_cast<char>(c)) != std::string_view::npos)
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return !path.empty() && path[0] == '/' ? "file://" + out : out;
}

}  // namespace

json to_json(const Finding& f) {
  return {{"check", f.check},   {"severity", f.severity}, {"file", f.file},      {"line", f.line},
          {"column", f.column}, {"message", f.message},   {"snippet", f.snippet}};
}

json to_json(const FileAudit& a) {
  json findings = json::array();
  for (const Finding& f : a.findings) findings.push_back(to_json(f));
  return {{"file", a.file.string()},
          {"findings", findings},
          {"parse_errors", a.parse_errors},
          {"failure", a.failure}};
}

FileAudit from_json_audit(const json& j) {
  FileAudit a;
  a.file = j.at("file").get<std::string>();
  for (const json& f : j.at("findings"))
    a.findings.push_back(Finding{f.at("check"), f.at("severity"), f.at("file"), f.at("line"),
                                 f.at("column"), f.at("message"), f.at("snippet")});
  a.parse_errors = j.at("parse_errors").get<std::vector<std::string>>();
  a.failure = j.at("failure").get<std::string>();
  return a;
}

std::string format_text(const std::vector<FileAudit>& audits) {
  std::ostringstream out;
  for (const FileAudit& a : audits) {
    if (!a.failure.empty()) out << a.file.string() << ": error: " << a.failure << "\n";
    for (const std::string& e : a.parse_errors) out << e << "\n";
    for (const Finding& f : a.findings) {
      out << fmt::format("{}:{}:{}: {}: {} [{}]\n", f.file, f.line, f.column, f.severity, f.message,
                         f.check);
      if (!f.snippet.empty()) out << f.snippet << "\n" << caret_line(f.snippet, f.column) << "\n";
    }
  }
  Counts c = count(audits);
  out << fmt::format("{} file{} audited: {} error{}, {} warning{}\n", audits.size(),
                     audits.size() == 1 ? "" : "s", c.errors, c.errors == 1 ? "" : "s", c.warnings,
                     c.warnings == 1 ? "" : "s");
  return out.str();
}

std::string format_json(const std::vector<FileAudit>& audits) {
  json files = json::array();
  for (const FileAudit& a : audits) files.push_back(to_json(a));
  Counts c = count(audits);
  json doc = {
      {"tool", "kta-audit"},
      {"version", KTA_ANALYZER_VERSION},
      {"files", files},
      {"summary", {{"files", audits.size()}, {"errors", c.errors}, {"warnings", c.warnings}}}};
  return doc.dump(2) + "\n";
}

namespace {

// One rule per check, plus the rule parse errors are reported under.
json sarif_rules() {
  json rules = json::array();
  for (const CheckInfo& c : check_catalog()) {
    rules.push_back({{"id", c.name},
                     {"name", c.name},
                     {"shortDescription", {{"text", c.summary}}},
                     {"helpUri", "docs/analyzers/" + c.name + ".md"},
                     {"defaultConfiguration", {{"level", c.severity}}}});
  }
  rules.push_back({{"id", kParseErrorRule},
                   {"name", kParseErrorRule},
                   {"shortDescription",
                    {{"text", "the file does not parse; findings come from a partial AST"}}},
                   {"defaultConfiguration", {{"level", "error"}}}});
  return rules;
}

// The results (findings, parse errors) and notifications (a failure) of audit `index`.
struct SarifFile {
  const json& rules;
  const FileAudit& audit;
  size_t index;

  size_t rule_index(const std::string& id) const {
    size_t k = 0;
    while (k < rules.size() && rules[k]["id"] != id) ++k;
    return k;
  }

  json location(const std::string& file, unsigned line, unsigned column,
                const std::string& snippet) const {
    json region = {{"startLine", std::max(1u, line)}};
    if (column) region["startColumn"] = column;
    if (!snippet.empty()) region["snippet"] = {{"text", snippet}};
    json artifact = {{"uri", to_uri(file)}};
    if (file == audit.file.string()) artifact["index"] = index;
    return json::array(
        {{{"physicalLocation", {{"artifactLocation", artifact}, {"region", region}}}}});
  }

  json result(const std::string& rule, const std::string& level, const std::string& message,
              json locations) const {
    return {{"ruleId", rule},
            {"ruleIndex", rule_index(rule)},
            {"level", level},
            {"message", {{"text", message}}},
            {"locations", std::move(locations)}};
  }

  void add_to(json& results, json& notifications) const {
    for (const Finding& f : audit.findings)
      results.push_back(
          result(f.check, f.severity, f.message, location(f.file, f.line, f.column, f.snippet)));
    for (const std::string& e : audit.parse_errors) {
      ParsedError p = parse_error_text(e, audit.file.string());
      results.push_back(
          result(kParseErrorRule, "error", p.message, location(p.file, p.line, p.column, "")));
    }
    if (!audit.failure.empty())
      notifications.push_back({{"level", "error"},
                               {"message", {{"text", audit.failure}}},
                               {"locations", location(audit.file.string(), 1, 0, "")}});
  }
};

}  // namespace

std::string format_sarif(const std::vector<FileAudit>& audits) {
  const json rules = sarif_rules();
  json artifacts = json::array();
  json results = json::array();
  json notifications = json::array();
  for (size_t i = 0; i < audits.size(); ++i) {
    artifacts.push_back({{"location", {{"uri", to_uri(audits[i].file.string())}}}});
    SarifFile{rules, audits[i], i}.add_to(results, notifications);
  }
  json invocation = {{"executionSuccessful", notifications.empty()}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  json doc = {{"$schema", kSarifSchema},
              {"version", "2.1.0"},
              {"runs", json::array({{{"tool",
                                      {{"driver",
                                        {{"name", "kta-audit"},
                                         {"version", KTA_ANALYZER_VERSION},
                                         {"informationUri", "docs/analyzers/README.md"},
                                         {"rules", rules}}}}},
                                     {"artifacts", artifacts},
                                     {"invocations", json::array({invocation})},
                                     {"results", results}}})}};
  return doc.dump(2) + "\n";
}

}  // namespace kta::analyzers
