#include "engine/device/cpu/hip_rewrite.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace kta::engine::cpu {
namespace {

enum class Tok { ident, number, punct, string, character };

struct Token {
  Tok kind;
  size_t begin, end;  // byte offsets into the source
  int line;
  std::string_view text;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Splits a source into tokens; comments and whitespace vanish, literals stay whole.
std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  int line = 1;
  auto push = [&](Tok k, size_t b, size_t e, int ln) {
    out.push_back({k, b, e, ln, s.substr(b, e - b)});
  };
  auto count_lines = [&](size_t b, size_t e) {
    for (size_t k = b; k < e && k < s.size(); ++k) line += s[k] == '\n';
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c)) ||
               (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n')) {
      ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      e = e == std::string_view::npos ? s.size() : e + 2;
      count_lines(i, e);
      i = e;
    } else if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') {
      size_t open = s.find('(', i + 2);
      if (open == std::string_view::npos) open = s.size();
      std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
      size_t e = s.find(close, open);
      e = e == std::string_view::npos ? s.size() : e + close.size();
      int ln = line;
      count_lines(i, e);
      push(Tok::string, i, e, ln);
      i = e;
    } else if (c == '"' || c == '\'') {
      size_t e = i + 1;
      while (e < s.size() && s[e] != c && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      e = std::min(e + 1, s.size());
      push(c == '"' ? Tok::string : Tok::character, i, e, line);
      i = e;
    } else if (ident_start(c)) {
      size_t e = i;
      while (e < s.size() && ident_char(s[e])) ++e;
      // Encoding prefixes of literals (u8"..", L'x') belong to the literal.
      if (e < s.size() && (s[e] == '"' || s[e] == '\'') &&
          (s.substr(i, e - i) == "u8" || s.substr(i, e - i) == "u" || s.substr(i, e - i) == "U" ||
           s.substr(i, e - i) == "L")) {
        i = e;
        continue;
      }
      push(Tok::ident, i, e, line);
      i = e;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t e = i + 1;
      while (e < s.size() &&
             (ident_char(s[e]) || s[e] == '.' || s[e] == '\'' ||
              ((s[e] == '+' || s[e] == '-') &&
               (s[e - 1] == 'e' || s[e - 1] == 'E' || s[e - 1] == 'p' || s[e - 1] == 'P'))))
        ++e;
      push(Tok::number, i, e, line);
      i = e;
    } else {
      push(Tok::punct, i, i + 1, line);
      ++i;
    }
  }
  return out;
}

bool is(const Token& t, char c) { return t.kind == Tok::punct && t.text[0] == c; }
bool is(const Token& t, std::string_view word) { return t.kind == Tok::ident && t.text == word; }
// Three adjacent punctuation characters `c` starting at token i.
bool triple(const std::vector<Token>& t, size_t i, char c) {
  return i + 2 < t.size() && is(t[i], c) && is(t[i + 1], c) && is(t[i + 2], c) &&
         t[i + 1].begin == t[i].end && t[i + 2].begin == t[i + 1].end;
}

bool synchronizing_name(std::string_view n) {
  return n.starts_with("__syncthreads") || n.starts_with("__shfl") || n.starts_with("__ballot") ||
         n == "__syncwarp" || n == "__any" || n == "__all" || n == "__any_sync" ||
         n == "__all_sync" || n.starts_with("__reduce_");
}

// Index of the token matching the opener at `i` (forward), or npos.
size_t match_forward(const std::vector<Token>& t, size_t i) {
  int depth = 0;
  for (size_t k = i; k < t.size(); ++k) {
    if (is(t[k], '(') || is(t[k], '[') || is(t[k], '{')) ++depth;
    if (is(t[k], ')') || is(t[k], ']') || is(t[k], '}')) {
      if (--depth == 0) return k;
    }
  }
  return std::string_view::npos;
}

struct Edit {
  size_t begin, end;
  std::string text;
};

// The callee of a chevron launch ends at token `last`; returns its first token or npos.
size_t callee_start(const std::vector<Token>& t, size_t last) {
  size_t k = last;
  if (is(t[k], ')')) {  // (kernel<T>)<<<...>>>
    int depth = 0;
    for (;; --k) {
      if (is(t[k], ')')) ++depth;
      if (is(t[k], '(') && --depth == 0) return k;
      if (k == 0) return std::string_view::npos;
    }
  }
  if (is(t[k], '>')) {  // kernel<T, 4><<<...>>>
    int depth = 0;
    for (;; --k) {
      if (is(t[k], '>')) ++depth;
      if (is(t[k], '<') && --depth == 0) break;
      if (k == 0) return std::string_view::npos;
    }
    if (k == 0) return std::string_view::npos;
    --k;
  }
  if (t[k].kind != Tok::ident) return std::string_view::npos;
  // Qualified names: ns::kernel, ::kernel.
  while (k >= 2 && is(t[k - 1], ':') && is(t[k - 2], ':')) {
    if (k >= 3 && t[k - 3].kind == Tok::ident) {
      k -= 3;
    } else {
      k -= 2;
      break;
    }
  }
  return k;
}

std::string span(std::string_view s, const std::vector<Token>& t, size_t first, size_t last) {
  return std::string(s.substr(t[first].begin, t[last].end - t[first].begin));
}

std::string newlines_in(std::string_view s) {
  return std::string(static_cast<size_t>(std::count(s.begin(), s.end(), '\n')), '\n');
}

}  // namespace

RewriteResult rewrite_hip_source(std::string_view s) {
  RewriteResult r;
  std::vector<Token> t = lex(s);
  std::vector<Edit> edits;
  // Brace stack: true for namespace-like scopes (namespace, extern "C"), false for code.
  std::vector<bool> scopes;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == Tok::ident && synchronizing_name(t[i].text)) r.synchronizes = true;
    if (is(t[i], '#') && i + 2 < t.size() && is(t[i + 1], "include") &&
        t[i + 2].kind == Tok::string) {
      std::string_view q = t[i + 2].text;
      r.quoted_includes.emplace_back(q.substr(1, q.size() - 2));
    }
    if (is(t[i], '{')) {
      bool ns = (i >= 1 && (is(t[i - 1], "namespace") || t[i - 1].kind == Tok::string)) ||
                (i >= 2 && t[i - 1].kind == Tok::ident && is(t[i - 2], "namespace"));
      scopes.push_back(ns);
    } else if (is(t[i], '}')) {
      if (!scopes.empty()) scopes.pop_back();
    } else if (triple(t, i, '<')) {
      if (i == 0) continue;
      size_t first = callee_start(t, i - 1);
      size_t cfg_end = std::string_view::npos;
      int depth = 0;
      for (size_t k = i + 3; k < t.size(); ++k) {
        if (is(t[k], '(') || is(t[k], '[') || is(t[k], '{')) ++depth;
        if (is(t[k], ')') || is(t[k], ']') || is(t[k], '}')) --depth;
        if (depth == 0 && triple(t, k, '>')) {
          cfg_end = k;
          break;
        }
        if (depth < 0 || is(t[k], ';')) break;
      }
      if (first == std::string_view::npos || cfg_end == std::string_view::npos ||
          cfg_end == i + 3 || cfg_end + 3 >= t.size() || !is(t[cfg_end + 3], '(')) {
        r.errors.push_back(std::to_string(t[i].line) +
                           ": malformed kernel launch: expected 'kernel<<<grid, block[, shared[, "
                           "stream]]>>>(args)'");
        continue;
      }
      size_t open = cfg_end + 3, close = match_forward(t, open);
      if (close == std::string_view::npos) {
        r.errors.push_back(std::to_string(t[i].line) + ": unbalanced parentheses in kernel launch");
        continue;
      }
      std::string callee = span(s, t, first, i - 1);
      std::string cfg = span(s, t, i + 3, cfg_end - 1);
      std::string args = close > open + 1 ? span(s, t, open + 1, close - 1) : std::string();
      // Whatever separated the pieces (line breaks) is kept by re-inserting the newlines.
      std::string gap1 = newlines_in(s.substr(t[i - 1].end, t[i + 3].begin - t[i - 1].end));
      std::string gap2 =
          newlines_in(s.substr(t[cfg_end - 1].end, t[open].end - t[cfg_end - 1].end));
      std::string text = "::kta_rt::launch_chevron([&](auto&&... kta_a) { " + callee +
                         "(kta_a...); }, " + gap1 + "::kta_rt::LaunchCfg(" + cfg + ")" + gap2 +
                         (args.empty() ? "" : ", " + args) + ")";
      edits.push_back({t[first].begin, t[close].end, std::move(text)});
      i = close;
    } else if (is(t[i], "extern") && i + 1 < t.size() && is(t[i + 1], "__shared__")) {
      size_t semi = i + 2;
      while (semi < t.size() && !is(t[semi], ';')) ++semi;
      // extern __shared__ [attributes] TYPE NAME [ ] ;
      std::vector<size_t> type;
      size_t name = std::string_view::npos;
      for (size_t k = i + 2; k < semi; ++k) {
        if (is(t[k], "__align__") || is(t[k], "alignas") || is(t[k], "__attribute__") ||
            is(t[k], "HIP_DYNAMIC_SHARED_ATTRIBUTE")) {
          if (k + 1 < semi && is(t[k + 1], '(')) k = match_forward(t, k + 1);
          continue;
        }
        if (is(t[k], '[')) {
          if (!type.empty()) {
            name = type.back();
            type.pop_back();
          }
          break;
        }
        type.push_back(k);
      }
      if (semi >= t.size() || name == std::string_view::npos || type.empty() ||
          t[name].kind != Tok::ident) {
        r.errors.push_back(std::to_string(t[i].line) +
                           ": unsupported dynamic shared memory declaration: expected 'extern "
                           "__shared__ T name[];'");
        continue;
      }
      std::string type_text;
      for (size_t k : type)
        type_text +=
            std::string(t[k].text) + (k + 1 < name && t[k + 1].begin == t[k].end ? "" : " ");
      std::string nm(t[name].text);
      bool code_scope = std::find(scopes.begin(), scopes.end(), false) != scopes.end();
      std::string text = code_scope
                             ? type_text + "* const " + nm + " = static_cast<" + type_text +
                                   "*>(::kta_rt::tls.dynamic_shared);"
                             : "static ::kta_rt::DynamicShared<" + type_text + "> " + nm + ";";
      text += newlines_in(s.substr(t[i].begin, t[semi].end - t[i].begin));
      edits.push_back({t[i].begin, t[semi].end, std::move(text)});
      i = semi;
    }
  }
  r.text.reserve(s.size() + edits.size() * 80);
  size_t at = 0;
  for (const Edit& e : edits) {
    r.text.append(s.substr(at, e.begin - at));
    r.text += e.text;
    at = e.end;
  }
  r.text.append(s.substr(at));
  return r;
}

std::vector<std::string> kernel_parameter_names(std::string_view s, std::string_view entry) {
  std::vector<Token> t = lex(s);
  for (size_t i = 0; i < t.size(); ++i) {
    if (!is(t[i], "__global__")) continue;
    // __global__ [attributes, __launch_bounds__(...)] void NAME ( ... )
    size_t open = i + 1;
    while (open + 1 < t.size() && !is(t[open], ';') && !is(t[open], '{') &&
           !(is(t[open], entry) && is(t[open + 1], '(')))
      ++open;
    if (open + 1 >= t.size() || !is(t[open], entry)) continue;
    ++open;
    size_t close = match_forward(t, open);
    if (close == std::string_view::npos) return {};
    std::vector<std::string> names;
    std::string last;
    int depth = 0;
    bool in_default = false;
    for (size_t k = open + 1; k < close; ++k) {
      if (is(t[k], '(') || is(t[k], '[') || is(t[k], '<')) ++depth;
      if (is(t[k], ')') || is(t[k], ']') || is(t[k], '>')) --depth;
      if (depth == 0 && is(t[k], ',')) {
        names.push_back(last);
        last.clear();
        in_default = false;
      } else if (depth == 0 && is(t[k], '=')) {
        in_default = true;
      } else if (!in_default && depth == 0 && t[k].kind == Tok::ident &&
                 t[k].text != "__restrict__" && t[k].text != "const" && t[k].text != "volatile" &&
                 t[k].text != "restrict") {
        last = std::string(t[k].text);
      }
    }
    if (!last.empty() || !names.empty()) names.push_back(last);
    return names;
  }
  return {};
}

bool mentions_identifier(std::string_view s, std::string_view name) {
  for (const Token& tok : lex(s)) {
    if (tok.kind == Tok::ident && tok.text == name) return true;
  }
  return false;
}

}  // namespace kta::engine::cpu
