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

// End of the block comment opened at `i` (past its `*/`, or the end of the source).
size_t block_comment_end(std::string_view s, size_t i) {
  size_t e = s.find("*/", i + 2);
  return e == std::string_view::npos ? s.size() : e + 2;
}

// End of the raw string literal `R"delim( ... )delim"` opened at `i`.
size_t raw_string_end(std::string_view s, size_t i) {
  size_t open = s.find('(', i + 2);
  if (open == std::string_view::npos) open = s.size();
  std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
  size_t e = s.find(close, open);
  return e == std::string_view::npos ? s.size() : e + close.size();
}

// End of the string or character literal opened by the quote at `i`; stops at a line break.
size_t quoted_end(std::string_view s, size_t i) {
  size_t e = i + 1;
  while (e < s.size() && s[e] != s[i] && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
  return std::min(e + 1, s.size());
}

// End of the number at `i`: digits, suffixes, digit separators, exponents with their sign.
size_t number_end(std::string_view s, size_t i) {
  size_t e = i + 1;
  while (e < s.size() && (ident_char(s[e]) || s[e] == '.' || s[e] == '\'' ||
                          ((s[e] == '+' || s[e] == '-') && (s[e - 1] == 'e' || s[e - 1] == 'E' ||
                                                            s[e - 1] == 'p' || s[e - 1] == 'P'))))
    ++e;
  return e;
}

bool starts_number(std::string_view s, size_t i) {
  return std::isdigit(static_cast<unsigned char>(s[i])) ||
         (s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])));
}

// Encoding prefixes of literals (u8"..", L'x') belong to the literal.
bool literal_prefix(std::string_view word) {
  return word == "u8" || word == "u" || word == "U" || word == "L";
}

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
  auto next_is = [&](char c) { return i + 1 < s.size() && s[i + 1] == c; };
  while (i < s.size()) {
    char c = s[i];
    size_t e = i + 1;
    if (c == '\n') {
      ++line;
    } else if (std::isspace(static_cast<unsigned char>(c)) || (c == '\\' && next_is('\n'))) {
      // whitespace and line continuations
    } else if (c == '/' && next_is('/')) {
      e = std::min(s.find('\n', i), s.size());
    } else if (c == '/' && next_is('*')) {
      e = block_comment_end(s, i);
      count_lines(i, e);
    } else if (c == 'R' && next_is('"')) {
      e = raw_string_end(s, i);
      int ln = line;
      count_lines(i, e);
      push(Tok::string, i, e, ln);
    } else if (c == '"' || c == '\'') {
      e = quoted_end(s, i);
      push(c == '"' ? Tok::string : Tok::character, i, e, line);
    } else if (ident_start(c)) {
      e = i;
      while (e < s.size() && ident_char(s[e])) ++e;
      bool prefix =
          e < s.size() && (s[e] == '"' || s[e] == '\'') && literal_prefix(s.substr(i, e - i));
      if (!prefix) push(Tok::ident, i, e, line);
    } else if (starts_number(s, i)) {
      e = number_end(s, i);
      push(Tok::number, i, e, line);
    } else {
      push(Tok::punct, i, i + 1, line);
    }
    i = e;
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

// A `{` at token i that opens a namespace-like scope (namespace, extern "C") rather than code.
bool opens_namespace_scope(const std::vector<Token>& t, size_t i) {
  return (i >= 1 && (is(t[i - 1], "namespace") || t[i - 1].kind == Tok::string)) ||
         (i >= 2 && t[i - 1].kind == Tok::ident && is(t[i - 2], "namespace"));
}

// The `>>>` closing the launch configuration opened by the `<<<` at token i, or npos.
size_t launch_config_end(const std::vector<Token>& t, size_t i) {
  int depth = 0;
  for (size_t k = i + 3; k < t.size(); ++k) {
    if (is(t[k], '(') || is(t[k], '[') || is(t[k], '{')) ++depth;
    if (is(t[k], ')') || is(t[k], ']') || is(t[k], '}')) --depth;
    if (depth == 0 && triple(t, k, '>')) return k;
    if (depth < 0 || is(t[k], ';')) break;
  }
  return std::string_view::npos;
}

// `kernel<<<cfg>>>(args)` with its `<<<` at token i becomes a launch_chevron call. Returns the
// token to continue after: the launch's `)`, or i itself when it is malformed (reported).
size_t rewrite_launch(std::string_view s, const std::vector<Token>& t, size_t i,
                      std::vector<Edit>& edits, std::vector<std::string>& errors) {
  if (i == 0) return i;
  size_t first = callee_start(t, i - 1);
  size_t cfg_end = launch_config_end(t, i);
  if (first == std::string_view::npos || cfg_end == std::string_view::npos || cfg_end == i + 3 ||
      cfg_end + 3 >= t.size() || !is(t[cfg_end + 3], '(')) {
    errors.push_back(std::to_string(t[i].line) +
                     ": malformed kernel launch: expected 'kernel<<<grid, block[, shared[, "
                     "stream]]>>>(args)'");
    return i;
  }
  size_t open = cfg_end + 3, close = match_forward(t, open);
  if (close == std::string_view::npos) {
    errors.push_back(std::to_string(t[i].line) + ": unbalanced parentheses in kernel launch");
    return i;
  }
  std::string callee = span(s, t, first, i - 1);
  std::string cfg = span(s, t, i + 3, cfg_end - 1);
  std::string args = close > open + 1 ? span(s, t, open + 1, close - 1) : std::string();
  // Whatever separated the pieces (line breaks) is kept by re-inserting the newlines.
  std::string gap1 = newlines_in(s.substr(t[i - 1].end, t[i + 3].begin - t[i - 1].end));
  std::string gap2 = newlines_in(s.substr(t[cfg_end - 1].end, t[open].end - t[cfg_end - 1].end));
  std::string text = "::kta_rt::launch_chevron(" + one_line_literal(callee) +
                     ", [&](auto&&... kta_a) { " + callee + "(kta_a...); }, " + gap1 +
                     "::kta_rt::LaunchCfg(" + cfg + ")" + gap2 + (args.empty() ? "" : ", " + args) +
                     ")";
  edits.push_back({t[first].begin, t[close].end, std::move(text)});
  return close;
}

// `extern __shared__ [attributes] TYPE NAME [ ] ;` between tokens i and `semi`: the type's
// tokens and the name's token (npos when the declaration has another form).
size_t shared_decl_name(const std::vector<Token>& t, size_t i, size_t semi,
                        std::vector<size_t>& type) {
  for (size_t k = i + 2; k < semi; ++k) {
    if (is(t[k], "__align__") || is(t[k], "alignas") || is(t[k], "__attribute__") ||
        is(t[k], "HIP_DYNAMIC_SHARED_ATTRIBUTE")) {
      if (k + 1 < semi && is(t[k + 1], '(')) {
        size_t close = match_forward(t, k + 1);
        // Unbalanced before the `;`: another form (reported), never a scan past it.
        if (close == std::string_view::npos || close >= semi) return std::string_view::npos;
        k = close;
      }
      continue;
    }
    if (is(t[k], '[')) {
      if (type.empty()) return std::string_view::npos;
      size_t name = type.back();
      type.pop_back();
      return name;
    }
    type.push_back(k);
  }
  return std::string_view::npos;
}

// `extern __shared__ T name[];` at token i becomes a view of the block's dynamic shared memory
// (a pointer inside code, a DynamicShared object at namespace scope). Returns the token to
// continue after: the `;`, or i itself when the declaration is unsupported (reported).
size_t rewrite_dynamic_shared(std::string_view s, const std::vector<Token>& t, size_t i,
                              bool code_scope, std::vector<Edit>& edits,
                              std::vector<std::string>& errors) {
  size_t semi = i + 2;
  while (semi < t.size() && !is(t[semi], ';')) ++semi;
  std::vector<size_t> type;
  size_t name = shared_decl_name(t, i, semi, type);
  if (semi >= t.size() || name == std::string_view::npos || type.empty() ||
      t[name].kind != Tok::ident) {
    errors.push_back(std::to_string(t[i].line) +
                     ": unsupported dynamic shared memory declaration: expected 'extern "
                     "__shared__ T name[];'");
    return i;
  }
  std::string type_text;
  for (size_t k : type)
    type_text += std::string(t[k].text) + (k + 1 < name && t[k + 1].begin == t[k].end ? "" : " ");
  std::string nm(t[name].text);
  std::string text = code_scope ? type_text + "* const " + nm + " = static_cast<" + type_text +
                                      "*>(::kta_rt::tls.dynamic_shared);"
                                : "static ::kta_rt::DynamicShared<" + type_text + "> " + nm + ";";
  text += newlines_in(s.substr(t[i].begin, t[semi].end - t[i].begin));
  edits.push_back({t[i].begin, t[semi].end, std::move(text)});
  return semi;
}

std::string apply_edits(std::string_view s, const std::vector<Edit>& edits) {
  std::string out;
  out.reserve(s.size() + edits.size() * 80);
  size_t at = 0;
  for (const Edit& e : edits) {
    out.append(s.substr(at, e.begin - at));
    out += e.text;
    at = e.end;
  }
  out.append(s.substr(at));
  return out;
}

}  // namespace

RewriteResult rewrite_hip_source(std::string_view s, const IncludeTarget& include) {
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
      std::string to = include ? include(r.quoted_includes.back()) : std::string();
      if (!to.empty()) edits.push_back({t[i + 2].begin, t[i + 2].end, one_line_literal(to)});
    }
    if (is(t[i], '{')) {
      scopes.push_back(opens_namespace_scope(t, i));
    } else if (is(t[i], '}')) {
      if (!scopes.empty()) scopes.pop_back();
    } else if (triple(t, i, '<')) {
      i = rewrite_launch(s, t, i, edits, r.errors);
    } else if (is(t[i], "extern") && i + 1 < t.size() && is(t[i + 1], "__shared__")) {
      bool code_scope = std::find(scopes.begin(), scopes.end(), false) != scopes.end();
      i = rewrite_dynamic_shared(s, t, i, code_scope, edits, r.errors);
    }
  }
  r.text = apply_edits(s, edits);
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

std::string one_line_literal(std::string_view text) {
  std::string out = "\"";
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool mentions_identifier(std::string_view s, std::string_view name) {
  for (const Token& tok : lex(s)) {
    if (tok.kind == Tok::ident && tok.text == name) return true;
  }
  return false;
}

}  // namespace kta::engine::cpu
