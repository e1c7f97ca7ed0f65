#include "lang/placeholders.h"

#include <cctype>

namespace kta::lang {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The placeholder opening at `open`, if one does.
std::optional<Placeholder> placeholder_at(const std::string& text, size_t open) {
  size_t i = open + 1;
  if (i >= text.size() || !ident_start(text[i])) return std::nullopt;
  while (i < text.size() && ident_char(text[i])) ++i;
  Placeholder p;
  p.begin = open;
  p.name = text.substr(open + 1, i - open - 1);
  if (i + 1 < text.size() && text[i] == ':' && (text[i + 1] == '-' || text[i + 1] == '+')) {
    p.op = text[i + 1];
    size_t from = i + 2;
    // The closing brace, past the placeholders nested in the text.
    for (i = from; i < text.size() && text[i] != '}'; ++i) {
      if (text[i] != '{') continue;
      auto inner = placeholder_at(text, i);
      if (!inner || inner->op) return std::nullopt;
      i = inner->end - 1;
    }
    p.text = text.substr(from, i - from);
  }
  if (i >= text.size() || text[i] != '}') return std::nullopt;
  p.end = i + 1;
  return p;
}

}  // namespace

std::vector<Placeholder> placeholders_in(const std::string& text) {
  std::vector<Placeholder> out;
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    auto p = placeholder_at(text, open);
    if (!p) continue;
    open = p->end - 1;
    out.push_back(std::move(*p));
  }
  return out;
}

std::vector<std::string> placeholder_names(const std::string& text) {
  std::vector<std::string> out;
  for (const Placeholder& p : placeholders_in(text)) {
    out.push_back(p.name);
    for (auto& n : placeholder_names(p.text)) out.push_back(std::move(n));
  }
  return out;
}

const std::vector<std::string>& builtin_placeholders() {
  static const std::vector<std::string> names = {"prompt", "prompt_file", "workspace",
                                                 "task",   "model",       "home"};
  return names;
}

}  // namespace kta::lang
