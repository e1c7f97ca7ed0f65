#include "analyzers/suppression.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace kta::analyzers {
namespace {

constexpr std::string_view kMarker = "kta-audit:";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text = text.substr(nl + 1);
  }
  return lines;
}

// A line holding only a // comment (suppressions there apply to the next code line).
bool comment_only(std::string_view line) { return trim(line).substr(0, 2) == "//"; }

struct Allow {
  std::set<std::string> checks;
};

// The code line a suppression on line `lineno` applies to: that line, or the next line below
// that is not only a comment when the suppression stands on a comment line of its own.
unsigned suppression_target(const std::vector<std::string_view>& lines, unsigned lineno) {
  unsigned target = lineno;
  if (comment_only(lines[lineno - 1])) {
    while (target < lines.size() && comment_only(lines[target])) ++target;
    ++target;
  }
  return target;
}

// The check names of `allow(a, b)`, trimmed, empty ones dropped.
std::vector<std::string> split_names(std::string_view names) {
  std::vector<std::string> out;
  while (!names.empty()) {
    auto comma = names.find(',');
    std::string name(trim(names.substr(0, comma)));
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    if (!name.empty()) out.push_back(std::move(name));
  }
  return out;
}

}  // namespace

void apply_suppressions(const std::string& file, std::string_view text,
                        const std::vector<std::string>& known_checks,
                        std::vector<Finding>& findings) {
  std::vector<std::string_view> lines = split_lines(text);
  std::map<unsigned, Allow> allowed;  // 1-based code line -> checks allowed there
  std::vector<Finding> malformed;
  auto complain = [&](unsigned line, unsigned col, std::string message) {
    Finding f{std::string(kSuppressionCheck),    "warning", file, line, col, std::move(message),
              std::string(trim(lines[line - 1]))};
    malformed.push_back(std::move(f));
  };

  for (unsigned i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    auto slash = line.find("//");
    if (slash == std::string_view::npos) continue;
    auto at = line.find(kMarker, slash);
    if (at == std::string_view::npos) continue;
    unsigned lineno = i + 1;
    unsigned col = static_cast<unsigned>(at) + 1;
    std::string_view rest = trim(line.substr(at + kMarker.size()));
    if (rest.substr(0, 6) != "allow(") {
      complain(lineno, col,
               "malformed suppression; expected 'kta-audit: allow(check-name): reason'");
      continue;
    }
    auto close = rest.find(')');
    if (close == std::string_view::npos) {
      complain(lineno, col, "malformed suppression; missing ')' after the check names");
      continue;
    }
    unsigned target = suppression_target(lines, lineno);
    std::vector<std::string> names = split_names(rest.substr(6, close - 6));
    std::string_view after = trim(rest.substr(close + 1));
    std::string_view reason =
        after.substr(0, 1) == ":" ? trim(after.substr(1)) : std::string_view();
    for (const std::string& name : names) {
      if (std::find(known_checks.begin(), known_checks.end(), name) == known_checks.end()) {
        complain(lineno, col, fmt::format("suppression names unknown check '{}'", name));
        continue;
      }
      allowed[target].checks.insert(name);
    }
    if (names.empty())
      complain(lineno, col, "suppression names no check");
    else if (reason.empty())
      complain(lineno, col,
               "suppression without a reason; write 'allow(check): why this is general'");
  }

  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) {
                                  auto it = allowed.find(f.line);
                                  return it != allowed.end() && it->second.checks.count(f.check);
                                }),
                 findings.end());
  findings.insert(findings.end(), malformed.begin(), malformed.end());
}

}  // namespace kta::analyzers
