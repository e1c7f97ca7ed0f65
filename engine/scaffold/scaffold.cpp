#include "engine/scaffold/scaffold.h"

#include <fmt/format.h>

#include <regex>
#include <set>

#include "lang/diagnostics.h"
#include "lang/format.h"
#include "lang/source_manager.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// Words a task name cannot be: the .kta language's literals, C++ and Python keywords (the name
// becomes a kernel and a Python function), and names the HIP sources already use.
const std::set<std::string>& reserved_names() {
  static const std::set<std::string> words = {
      "true", "false", "inf", "nan",
      // C++
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class",
      "const", "constexpr", "continue", "default", "delete", "do", "double", "else", "enum",
      "explicit", "extern", "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "namespace", "new", "not", "operator", "or", "private", "protected", "public", "register",
      "return", "short", "signed", "sizeof", "static", "struct", "switch", "template", "this",
      "throw", "try", "typedef", "typename", "union", "unsigned", "using", "virtual", "void",
      "volatile", "while",
      // Python
      "False", "None", "True", "as", "assert", "async", "await", "def", "del", "elif", "except",
      "finally", "from", "global", "import", "in", "is", "lambda", "nonlocal", "pass", "raise",
      "with", "yield",
      // what the scaffolds' sources define or include
      "kta_launch", "main", "torch", "triton", "tl", "Model", "Reference"};
  return words;
}

// Each line of `lines` as a comment line (`comment` is "//" or "#").
std::string commented(const std::string& lines, const std::string& comment) {
  std::string out;
  size_t at = 0;
  while (at < lines.size()) {
    size_t end = lines.find('\n', at);
    if (end == std::string::npos) end = lines.size();
    out += comment + " " + lines.substr(at, end - at) + "\n";
    at = end + 1;
  }
  return out;
}

}  // namespace

bool reserved_name(const std::string& name) { return reserved_names().count(name) != 0; }

std::string task_name_problem(const std::string& name) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  if (!std::regex_match(name, identifier))
    return fmt::format(
        "'{}' is not a task name: use letters, digits and '_', not starting with a digit", name);
  if (reserved_name(name))
    return fmt::format("'{}' is a reserved word of .kta, C++ or Python; choose another task name",
                       name);
  if (name.starts_with("__"))
    return fmt::format("'{}' starts with '__', which C++ reserves; choose another task name", name);
  return {};
}

ScaffoldFile solution_stub(const std::string& name, const fs::path& editable,
                           const std::string& text) {
  std::string comment = editable.extension() == ".py" ? "#" : "//";
  std::string head = commented(
      fmt::format("A replay solution of the {0} task.\n"
                  "`kta eval {0}.kta --replay solutions` evaluates it as the candidate (the\n"
                  "replay agent reads solutions/<task>/<editable file>); as scaffolded it is the\n"
                  "code the agent starts from.\n"
                  "{1} an optimized solution that shows the task is improvable,\n"
                  "or delete solutions/.",
                  name, kAuthorTodo),
      comment);
  return {fs::path("solutions") / name / editable.filename(), head + text};
}

std::string formatted_kta(const std::string& text, const std::string& file_name) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  uint32_t id = sources.add(file_name, file_name, text);
  auto formatted = lang::format_source(id, diags);
  return formatted ? *formatted : text;
}

}  // namespace kta::engine
