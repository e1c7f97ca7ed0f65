// Actions of the .kta grammar: they build the syntax tree on an explicit stack as rules match.
#include "lang/parse.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "lang/grammar.h"

namespace kta::lang {
namespace {

namespace g = grammar;
namespace pegtl = tao::pegtl;
using ast::ExprPtr;

// A syntax error: thrown by must<> failures and by actions, caught by parse_file.
struct SyntaxError {
  Msg msg;
  uint32_t offset;
  std::string arg;  // for messages that name something other than the token found
};

struct CallFrame {
  std::string callee;
  SourceRange where;
  std::vector<ast::Arg> args;
  std::string key;
  SourceRange key_where;
};

struct State {
  const SourceManager& sm;
  uint32_t file;
  const char* base;
  ast::File out;
  std::map<uint32_t, ast::Comment> comments;  // by offset: backtracking may see one twice

  std::vector<ExprPtr> exprs;
  std::vector<size_t> marks;
  std::vector<CallFrame> calls;
  size_t depth = 0;
  uint32_t open_offset = 0;  // where the last string or comment began, for "unterminated" errors

  // statement builders
  std::string key, subject, block_key;
  SourceRange key_where, subject_where, block_key_where;
  bool eq = false, commas = false, block_eq = false, has_block = false, block_inline = false;
  std::vector<ast::Setting> block;
  std::vector<ast::Setting> body;
  std::vector<ast::TaskItem> task_items;
  std::string name, role, type;
  SourceRange name_where, type_where;
  bool has_value = false;
  ast::EntryDecl entry;
  bool entry_frame = false;
  ast::ShapesDecl shapes;
  ast::GridItem::Kind axis_kind = ast::GridItem::Kind::axis;
  std::string axis;
  SourceRange axis_where;
  bool axis_tuple = false;                // `(D, H, W) in [...]`
  std::vector<std::string> axis_members;  // its names
  std::vector<SourceRange> axis_members_where;
  ast::Import import;
  std::string decl_kind, decl_name;
  SourceRange decl_name_where;
  std::vector<ast::ParamSig> sigs;
  ast::ParamSig sig;
  bool builtin = false;

  template <typename In>
  uint32_t offset(const In& in) const {
    return static_cast<uint32_t>(in.begin() - base);
  }
  template <typename In>
  SourceRange range(const In& in) const {
    uint32_t b = offset(in);
    uint32_t e = b + static_cast<uint32_t>(in.size());
    // Statements end before the blanks and `;` that close them.
    while (e > b && (base[e - 1] == ' ' || base[e - 1] == '\t' || base[e - 1] == '\r' ||
                     base[e - 1] == ';' || base[e - 1] == '\n'))
      --e;
    return sm.range(file, b, e);
  }
  SourceRange span(const SourceRange& a, const SourceRange& b) const {
    return sm.range(file, a.begin, b.end);
  }

  ExprPtr pop() {
    ExprPtr e = std::move(exprs.back());
    exprs.pop_back();
    return e;
  }
  std::vector<ExprPtr> take_all() {
    std::vector<ExprPtr> all = std::move(exprs);
    exprs.clear();
    return all;
  }
  void reset_setting() {
    key.clear();
    subject.clear();
    subject_where = {};
    eq = commas = has_block = block_inline = false;
    block.clear();
  }
};

// Height of an expression tree, recorded so that deep trees are refused while parsing.
size_t height(const ExprPtr& e);

template <typename Node>
void push(State& s, Node node, SourceRange where) {
  auto e = std::make_shared<ast::Expr>();
  e->node = std::move(node);
  e->where = where;
  s.exprs.push_back(std::move(e));
}

void enter(State& s, uint32_t offset) {
  if (++s.depth > kMaxNesting)
    throw SyntaxError{Msg::nesting_too_deep, offset, std::to_string(kMaxNesting)};
}

// ---- literal decoding ----
int64_t parse_integer(std::string_view digits, uint32_t offset) {
  std::string clean;
  for (char c : digits)
    if (c != '_') clean += c;
  int base = 10;
  std::string_view v = clean;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    base = 16;
    v.remove_prefix(2);
  }
  uint64_t value = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value, base);
  if (ec != std::errc() || p != v.data() + v.size() || value > uint64_t(INT64_MAX))
    throw SyntaxError{Msg::bad_integer, offset, std::string(digits)};
  return static_cast<int64_t>(value);
}

struct Unit {
  std::string_view name;
  bool duration;
  int64_t scale;
};
constexpr Unit kUnits[] = {
    {"ns", true, 1},
    {"us", true, 1000},
    {"ms", true, 1000000},
    {"s", true, 1000000000},
    {"m", true, 60000000000},
    {"h", true, 3600000000000},
    {"B", false, 1},
    {"KiB", false, 1024},
    {"MiB", false, 1024 * 1024},
    {"GiB", false, 1024ll * 1024 * 1024},
    {"KB", false, 1000},
    {"MB", false, 1000000},
    {"GB", false, 1000000000},
};

// Length of the number at the start of `text` (what follows is its unit); `is_float` is set by
// a decimal point or an exponent.
size_t number_length(std::string_view text, bool& is_float) {
  size_t n = 0;
  bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  is_float = false;
  if (hex) {
    n = 2;
    while (n < text.size() && std::isxdigit(static_cast<unsigned char>(text[n]))) ++n;
    return n;
  }
  while (n < text.size()) {
    char c = text[n];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '_') {
      ++n;
    } else if (c == '.') {
      is_float = true;
      ++n;
    } else if ((c == 'e' || c == 'E') && n + 1 < text.size() &&
               (std::isdigit(static_cast<unsigned char>(text[n + 1])) || text[n + 1] == '+' ||
                text[n + 1] == '-')) {
      is_float = true;
      n += 2;
    } else {
      break;
    }
  }
  return n;
}

void push_number(State& s, std::string_view text, SourceRange where) {
  bool is_float = false;
  size_t n = number_length(text, is_float);
  std::string_view num = text.substr(0, n), unit = text.substr(n);
  double fvalue = 0;
  int64_t ivalue = 0;
  if (is_float) {
    std::string clean;
    for (char c : num)
      if (c != '_') clean += c;
    fvalue = std::strtod(clean.c_str(), nullptr);
    if (!std::isfinite(fvalue)) throw SyntaxError{Msg::bad_number, where.begin, std::string(text)};
  } else {
    ivalue = parse_integer(num, where.begin);
    fvalue = static_cast<double>(ivalue);
  }
  std::string spelled(text);
  if (unit.empty()) {
    if (is_float)
      push(s, ast::FloatLit{fvalue, spelled}, where);
    else
      push(s, ast::IntLit{ivalue, spelled}, where);
    return;
  }
  if (unit == "%") {
    push(s, ast::FloatLit{fvalue / 100.0, spelled}, where);
    return;
  }
  for (const Unit& u : kUnits) {
    if (u.name != unit) continue;
    double scaled = fvalue * static_cast<double>(u.scale);
    if (!is_float && ivalue > INT64_MAX / u.scale)
      throw SyntaxError{Msg::bad_number, where.begin, spelled};
    if (is_float && !(std::fabs(scaled) < 9.2e18))
      throw SyntaxError{Msg::bad_number, where.begin, spelled};
    int64_t v = is_float ? static_cast<int64_t>(std::llround(scaled)) : ivalue * u.scale;
    if (u.duration)
      push(s, ast::DurationLit{v, spelled}, where);
    else
      push(s, ast::SizeLit{v, spelled}, where);
    return;
  }
  throw SyntaxError{Msg::bad_unit, static_cast<uint32_t>(where.begin + n), std::string(unit)};
}

std::string decode_string(std::string_view text) {
  std::string out;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 2 < text.size() + 1) {
      char n = text[++i];
      out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
    } else {
      out += c;
    }
  }
  return out;
}

// Text blocks lose their first and last line break and their common indentation.
std::string decode_text_block(std::string_view text) {
  std::string_view body = text.substr(3, text.size() - 6);
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    size_t nl = body.find('\n', start);
    lines.push_back(body.substr(start, nl == std::string_view::npos ? nl : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  auto blank = [](std::string_view l) {
    return l.find_first_not_of(" \t\r") == std::string_view::npos;
  };
  if (lines.size() > 1 && blank(lines.front())) lines.erase(lines.begin());
  if (lines.size() > 1 && blank(lines.back())) lines.pop_back();
  size_t indent = std::string_view::npos;
  for (auto l : lines)
    if (!blank(l)) indent = std::min(indent, l.find_first_not_of(" \t"));
  if (indent == std::string_view::npos) indent = 0;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += '\n';
    auto l = lines[i];
    out += blank(l) ? std::string_view() : l.substr(std::min(indent, l.size()));
  }
  return out;
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  return v;
}

// First identifier of a text.
std::string_view first_word(std::string_view v) {
  size_t n = 0;
  while (n < v.size() && (std::isalnum(static_cast<unsigned char>(v[n])) || v[n] == '_')) ++n;
  return v.substr(0, n);
}

}  // namespace

size_t height_of(const ast::Expr& e);

namespace {

size_t height(const ExprPtr& e) { return e ? height_of(*e) : 0; }

void push_binary(State& s, std::string_view op_text, uint32_t offset) {
  ExprPtr rhs = s.pop(), lhs = s.pop();
  ast::BinOp op{};
  if (op_text.starts_with("<<"))
    op = ast::BinOp::shl;
  else if (op_text.starts_with(">>"))
    op = ast::BinOp::shr;
  else if (op_text.starts_with("<="))
    op = ast::BinOp::le;
  else if (op_text.starts_with(">="))
    op = ast::BinOp::ge;
  else if (op_text.starts_with("=="))
    op = ast::BinOp::eq;
  else if (op_text.starts_with("!="))
    op = ast::BinOp::ne;
  else if (op_text.starts_with("&&"))
    op = ast::BinOp::land;
  else if (op_text.starts_with("||"))
    op = ast::BinOp::lor;
  else if (op_text[0] == '<')
    op = ast::BinOp::lt;
  else if (op_text[0] == '>')
    op = ast::BinOp::gt;
  else if (op_text[0] == '*')
    op = ast::BinOp::mul;
  else if (op_text[0] == '/')
    op = ast::BinOp::div;
  else if (op_text[0] == '%')
    op = ast::BinOp::mod;
  else if (op_text[0] == '+')
    op = ast::BinOp::add;
  else
    op = ast::BinOp::sub;
  if (std::max(height(lhs), height(rhs)) + 1 > kMaxExprHeight)
    throw SyntaxError{Msg::nesting_too_deep, offset, std::to_string(kMaxExprHeight)};
  SourceRange where = s.span(lhs->where, rhs->where);
  push(s, ast::Binary{op, std::move(lhs), std::move(rhs)}, where);
}

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

#define KTA_ACTION(rule)   \
  template <>              \
  struct action<g::rule> { \
    template <typename In> \
    static void apply([[maybe_unused]] const In& in, [[maybe_unused]] State& s)

KTA_ACTION(line_comment) {
  uint32_t b = s.offset(in);
  s.comments[b] = ast::Comment{std::string(trim(in.string_view())), b, b + uint32_t(in.size())};
}
};
KTA_ACTION(block_comment) {
  uint32_t b = s.offset(in);
  s.comments[b] = ast::Comment{in.string(), b, b + uint32_t(in.size())};
}
};
KTA_ACTION(comment_open) { s.open_offset = s.offset(in); }
}
;
KTA_ACTION(text_open) { s.open_offset = s.offset(in); }
}
;
KTA_ACTION(string_open) { s.open_offset = s.offset(in); }
}
;
KTA_ACTION(number) { push_number(s, in.string_view(), s.range(in)); }
}
;
KTA_ACTION(plain_string) {
  push(s, ast::StringLit{decode_string(in.string_view()), in.string()}, s.range(in));
}
}
;
KTA_ACTION(text_block) {
  push(s, ast::StringLit{decode_text_block(in.string_view()), in.string()}, s.range(in));
}
}
;
KTA_ACTION(bool_lit) { push(s, ast::BoolLit{in.string_view() == "true"}, s.range(in)); }
}
;
KTA_ACTION(float_word) {
  double v = in.string_view() == "inf" ? std::numeric_limits<double>::infinity()
                                       : std::numeric_limits<double>::quiet_NaN();
  push(s, ast::FloatLit{v, in.string()}, s.range(in));
}
}
;
KTA_ACTION(name_ref) { push(s, ast::NameRef{in.string()}, s.range(in)); }
}
;
KTA_ACTION(paren_open) {
  enter(s, s.offset(in));
  s.marks.push_back(s.exprs.size());
}
}
;
KTA_ACTION(paren_expr) {
  size_t mark = s.marks.back();
  s.marks.pop_back();
  --s.depth;
  std::vector<ExprPtr> items(s.exprs.begin() + long(mark), s.exprs.end());
  s.exprs.resize(mark);
  if (items.size() == 1)
    push(s, ast::Paren{std::move(items[0])}, s.range(in));
  else
    push(s, ast::Tuple{std::move(items)}, s.range(in));
}
}
;
KTA_ACTION(list_open) {
  enter(s, s.offset(in));
  s.marks.push_back(s.exprs.size());
}
}
;
KTA_ACTION(list_expr) {
  size_t mark = s.marks.back();
  s.marks.pop_back();
  --s.depth;
  std::vector<ExprPtr> items(s.exprs.begin() + long(mark), s.exprs.end());
  s.exprs.resize(mark);
  push(s, ast::List{std::move(items)}, s.range(in));
}
}
;
KTA_ACTION(call_head) {
  enter(s, s.offset(in));
  s.calls.push_back(CallFrame{in.string(), s.range(in), {}, {}, {}});
}
}
;
KTA_ACTION(arg_key) {
  std::string_view word = first_word(in.string_view());
  s.calls.back().key = std::string(word);
  s.calls.back().key_where = s.sm.range(s.file, s.offset(in), s.offset(in) + uint32_t(word.size()));
}
}
;
KTA_ACTION(span_tail) {
  ExprPtr hi = s.pop(), lo = s.pop();
  SourceRange where = s.span(lo->where, hi->where);
  push(s, ast::Span{std::move(lo), std::move(hi)}, where);
}
}
;
KTA_ACTION(arg) {
  CallFrame& f = s.calls.back();
  f.args.push_back(ast::Arg{std::move(f.key), f.key_where, s.pop()});
  f.key.clear();
  f.key_where = {};
}
}
;
KTA_ACTION(call_expr) {
  CallFrame f = std::move(s.calls.back());
  s.calls.pop_back();
  --s.depth;
  push(s, ast::Call{std::move(f.callee), f.where, std::move(f.args)}, s.range(in));
}
}
;
KTA_ACTION(unary_op) { enter(s, s.offset(in)); }
}
;
KTA_ACTION(prefixed) {
  --s.depth;
  ExprPtr operand = s.pop();
  push(s, ast::Unary{in.peek_char(), std::move(operand)}, s.range(in));
}
}
;
KTA_ACTION(mul_tail) { push_binary(s, in.string_view(), s.offset(in)); }
}
;
KTA_ACTION(add_tail) { push_binary(s, in.string_view(), s.offset(in)); }
}
;
KTA_ACTION(shift_tail) { push_binary(s, in.string_view(), s.offset(in)); }
}
;
KTA_ACTION(cmp_tail) { push_binary(s, in.string_view(), s.offset(in)); }
}
;
KTA_ACTION(and_tail) { push_binary(s, in.string_view(), s.offset(in)); }
}
;
KTA_ACTION(or_tail) { push_binary(s, in.string_view(), s.offset(in)); }
}
;

// ---- settings ----
KTA_ACTION(block_key) {
  s.block_key = in.string();
  s.block_key_where = s.range(in);
  s.block_eq = false;
}
}
;
KTA_ACTION(block_eq) { s.block_eq = true; }
}
;
KTA_ACTION(block_setting) {
  ast::Setting st;
  st.key = std::move(s.block_key);
  st.key_where = s.block_key_where;
  st.eq = s.block_eq;
  st.values.push_back(s.pop());
  st.where = s.range(in);
  s.block.push_back(std::move(st));
}
}
;
KTA_ACTION(settings_block) {
  s.has_block = true;
  s.block_inline = in.string_view().find('\n') == std::string_view::npos;
}
}
;
KTA_ACTION(setting_key) {
  s.key = in.string();
  s.key_where = s.range(in);
}
}
;
KTA_ACTION(setting_subject) {
  std::string_view word = first_word(in.string_view());
  s.subject = std::string(word);
  s.subject_where = s.sm.range(s.file, s.offset(in), s.offset(in) + uint32_t(word.size()));
}
}
;
KTA_ACTION(setting_eq) { s.eq = true; }
}
;
KTA_ACTION(value_comma) { s.commas = true; }
}
;
KTA_ACTION(line_setting) {
  ast::Setting st;
  st.key = std::move(s.key);
  st.key_where = s.key_where;
  st.subject = std::move(s.subject);
  st.subject_where = s.subject_where;
  st.eq = s.eq;
  st.commas = s.commas;
  st.has_block = s.has_block;
  st.block_inline = s.block_inline;
  st.block = std::move(s.block);
  st.values = s.take_all();
  st.where = s.range(in);
  s.body.push_back(std::move(st));
  s.reset_setting();
}
}
;

// ---- task statements ----
KTA_ACTION(param_name) {
  s.name = in.string();
  s.name_where = s.range(in);
  s.has_value = false;
}
}
;
KTA_ACTION(tensor_name) {
  s.name = in.string();
  s.name_where = s.range(in);
  s.has_value = false;
}
}
;
KTA_ACTION(scalar_type) {
  s.type = in.string();
  s.type_where = s.range(in);
}
}
;
KTA_ACTION(dtype) {
  s.type = in.string();
  s.type_where = s.range(in);
}
}
;
KTA_ACTION(param_value) { s.has_value = true; }
}
;
KTA_ACTION(tensor_init) { s.has_value = true; }
}
;
KTA_ACTION(tensor_role) { s.role = in.string(); }
}
;
KTA_ACTION(param_stmt) {
  ast::ParamDecl p{s.name, s.name_where, s.type, s.type_where, nullptr, s.range(in)};
  if (s.has_value) p.value = s.pop();
  s.exprs.clear();
  s.task_items.push_back(std::move(p));
}
}
;
KTA_ACTION(tensor_stmt) {
  ast::TensorDecl t;
  t.role = s.role;
  t.name = s.name;
  t.name_where = s.name_where;
  t.dtype = s.type;
  t.dtype_where = s.type_where;
  if (s.has_value) t.init = s.pop();
  t.dims = s.take_all();
  t.where = s.range(in);
  s.task_items.push_back(std::move(t));
}
}
;
KTA_ACTION(entry_which) {
  s.entry = ast::EntryDecl{};
  s.entry.which = in.string();
  s.entry_frame = false;
}
}
;
KTA_ACTION(flavor) {
  s.entry.flavor = in.string();
  s.entry.flavor_where = s.range(in);
}
}
;
KTA_ACTION(entry_file) {
  s.entry.file = decode_string(in.string_view());
  s.entry.file_text = in.string();
  s.entry.file_where = s.range(in);
}
}
;
KTA_ACTION(entry_symbol) {
  s.entry.symbol = in.string();
  s.entry.symbol_where = s.range(in);
  s.calls.push_back(CallFrame{in.string(), s.range(in), {}, {}, {}});
  s.entry_frame = true;
}
}
;
KTA_ACTION(entry_args) { s.entry.has_args = true; }
}
;
KTA_ACTION(entry_mode) {
  s.entry.mode = std::string(first_word(in.string_view()));
  s.entry.mode_where =
      s.sm.range(s.file, s.offset(in), s.offset(in) + uint32_t(s.entry.mode.size()));
}
}
;
KTA_ACTION(grid_clause) { s.entry.grid = s.pop(); }
}
;
KTA_ACTION(block_clause) { s.entry.block = s.pop(); }
}
;
KTA_ACTION(shared_clause) { s.entry.shared = s.pop(); }
}
;
KTA_ACTION(entry_stmt) {
  if (s.entry_frame) {
    s.entry.args = std::move(s.calls.back().args);
    s.calls.pop_back();
  }
  s.entry.where = s.range(in);
  s.exprs.clear();
  s.task_items.push_back(std::move(s.entry));
  s.entry = ast::EntryDecl{};
}
}
;
KTA_ACTION(grid_which) {
  s.shapes = ast::ShapesDecl{};
  s.shapes.which = in.string();
  s.shapes.which_where = s.range(in);
}
}
;
KTA_ACTION(axis_tuple_open) {
  s.axis_tuple = true;
  s.axis_members.clear();
  s.axis_members_where.clear();
}
}
;
KTA_ACTION(axis_name) {
  if (s.axis_tuple) {
    s.axis_members.push_back(in.string());
    s.axis_members_where.push_back(s.range(in));
    return;
  }
  s.axis = in.string();
  s.axis_where = s.range(in);
}
}
;
KTA_ACTION(axis_tuple) {
  s.axis.clear();
  s.axis_where = s.range(in);
}
}
;
KTA_ACTION(axis_in) { s.axis_kind = ast::GridItem::Kind::axis; }
}
;
KTA_ACTION(axis_derived) { s.axis_kind = ast::GridItem::Kind::derived; }
}
;
KTA_ACTION(axis_item) {
  ast::GridItem item{s.axis_kind, s.axis, s.axis_where, s.pop(), s.range(in)};
  if (s.axis_tuple) {
    item.members = std::move(s.axis_members);
    item.members_where = std::move(s.axis_members_where);
  }
  s.axis_tuple = false;
  s.shapes.items.push_back(std::move(item));
}
}
;
KTA_ACTION(where_item) {
  s.shapes.items.push_back(ast::GridItem{ast::GridItem::Kind::where, "", {}, s.pop(), s.range(in)});
}
}
;
KTA_ACTION(grid_block) {
  s.shapes.block_inline = in.string_view().find('\n') == std::string_view::npos;
}
}
;
KTA_ACTION(grid_generator) { s.shapes.generator = s.pop(); }
}
;
KTA_ACTION(shapes_stmt) {
  s.shapes.where = s.range(in);
  s.task_items.push_back(std::move(s.shapes));
  s.shapes = ast::ShapesDecl{};
}
}
;
KTA_ACTION(task_item) {
  for (auto& st : s.body) s.task_items.push_back(std::move(st));
  s.body.clear();
}
}
;

// ---- declarations ----
KTA_ACTION(module_path) {
  s.import = ast::Import{};
  s.import.module = in.string();
  s.import.module_where = s.range(in);
}
}
;
KTA_ACTION(import_alias) {
  s.import.alias = in.string();
  s.import.alias_where = s.range(in);
}
}
;
KTA_ACTION(import_decl) {
  s.import.where = s.range(in);
  s.out.decls.push_back(std::move(s.import));
}
}
;
template <typename In>
void set_decl_name(const In& in, State& s) {
  s.decl_name = in.string();
  s.decl_name_where = s.range(in);
}
KTA_ACTION(const_name) { set_decl_name(in, s); }
}
;
KTA_ACTION(preset_name) { set_decl_name(in, s); }
}
;
KTA_ACTION(callable_name) {
  set_decl_name(in, s);
  s.sigs.clear();
  s.builtin = false;
}
}
;
KTA_ACTION(task_name) { set_decl_name(in, s); }
}
;
KTA_ACTION(plan_name) { set_decl_name(in, s); }
}
;
KTA_ACTION(const_decl) {
  s.out.decls.push_back(ast::ConstDecl{s.decl_name, s.decl_name_where, s.pop(), s.range(in)});
  s.exprs.clear();
}
}
;
KTA_ACTION(preset_kind) { s.decl_kind = in.string(); }
}
;
KTA_ACTION(callable_kind) { s.decl_kind = in.string(); }
}
;
KTA_ACTION(preset_decl) {
  s.out.decls.push_back(ast::PresetDecl{s.decl_kind, s.decl_name, s.decl_name_where,
                                        std::move(s.block), s.block_inline, s.range(in)});
  s.reset_setting();
}
}
;
KTA_ACTION(sig_name) {
  s.sig = ast::ParamSig{};
  s.sig.name = in.string();
  s.sig.name_where = s.range(in);
}
}
;
KTA_ACTION(sig_type) {
  s.sig.type = in.string();
  s.sig.type_where = s.range(in);
}
}
;
KTA_ACTION(sig_default) { s.sig.default_value = s.pop(); }
}
;
KTA_ACTION(param_sig) { s.sigs.push_back(std::move(s.sig)); }
}
;
KTA_ACTION(builtin_kw) { s.builtin = true; }
}
;
KTA_ACTION(callable_decl) {
  ast::CallableDecl c;
  c.kind = s.decl_kind;
  c.name = s.decl_name;
  c.name_where = s.decl_name_where;
  c.params = std::move(s.sigs);
  c.builtin = s.builtin;
  c.body = std::move(s.body);
  c.where = s.range(in);
  s.body.clear();
  s.sigs.clear();
  s.out.decls.push_back(std::move(c));
}
}
;
KTA_ACTION(task_decl) {
  s.out.decls.push_back(
      ast::TaskDecl{s.decl_name, s.decl_name_where, std::move(s.task_items), s.range(in)});
  s.task_items.clear();
}
}
;
KTA_ACTION(plan_decl) {
  s.out.decls.push_back(
      ast::PlanDecl{s.decl_name, s.decl_name_where, std::move(s.body), s.range(in)});
  s.body.clear();
}
}
;

#undef KTA_ACTION

// ---- errors: which message a failed must<> reports ----
template <typename Rule>
inline constexpr Msg error_for = Msg::unexpected;
#define KTA_ERROR(rule, msg) \
  template <>                \
  inline constexpr Msg error_for<g::rule> = Msg::msg;
KTA_ERROR(block_comment_rest, unterminated_comment)
KTA_ERROR(exponent_digits, expected_exponent)
KTA_ERROR(escape_char, bad_escape)
KTA_ERROR(string_rest, unterminated_string)
KTA_ERROR(text_block_rest, unterminated_text_block)
KTA_ERROR(expr, expected_expr)
KTA_ERROR(unary, expected_expr)
KTA_ERROR(mul_expr, expected_expr)
KTA_ERROR(add_expr, expected_expr)
KTA_ERROR(shift_expr, expected_expr)
KTA_ERROR(cmp_expr, expected_expr)
KTA_ERROR(and_expr, expected_expr)
KTA_ERROR(arg_value, expected_expr)
KTA_ERROR(close_paren, expected_rparen)
KTA_ERROR(close_bracket, expected_rbracket)
KTA_ERROR(call_args, expected_lparen)
KTA_ERROR(arg, expected_arg)
KTA_ERROR(block_close, expected_setting)
KTA_ERROR(setting_value, expected_expr)
KTA_ERROR(end_stmt, expected_end_of_statement)
KTA_ERROR(param_name, expected_name)
KTA_ERROR(tensor_name, expected_name)
KTA_ERROR(colon, expected_colon)
KTA_ERROR(scalar_type, expected_type)
KTA_ERROR(dtype, expected_dtype)
KTA_ERROR(dims, expected_lbracket_dims)
KTA_ERROR(flavor, expected_flavor)
KTA_ERROR(entry_file, expected_string)
KTA_ERROR(entry_mode, expected_entry_mode)
KTA_ERROR(entry_symbol, expected_name)
KTA_ERROR(entry_args, expected_lparen)
KTA_ERROR(grid_which, expected_shapes_kind)
KTA_ERROR(grid_body, expected_grid)
KTA_ERROR(grid_close, expected_grid_item)
KTA_ERROR(axis_rest, expected_axis)
KTA_ERROR(axis_name, expected_name)
KTA_ERROR(axis_values, expected_axis_values)
KTA_ERROR(module_path, expected_module)
KTA_ERROR(import_alias, expected_name)
KTA_ERROR(const_name, expected_name)
KTA_ERROR(equals, expected_eq)
KTA_ERROR(preset_name, expected_name)
KTA_ERROR(settings_block, expected_lbrace)
KTA_ERROR(callable_name, expected_name)
KTA_ERROR(param_sigs, expected_lparen)
KTA_ERROR(param_sig, expected_param_decl)
KTA_ERROR(sig_type, expected_name)
KTA_ERROR(callable_body, expected_builtin_or_body)
KTA_ERROR(agent_close, expected_agent_item)
KTA_ERROR(task_name, expected_name)
KTA_ERROR(task_body, expected_lbrace)
KTA_ERROR(task_close, expected_task_item)
KTA_ERROR(plan_name, expected_name)
KTA_ERROR(plan_body, expected_lbrace)
KTA_ERROR(plan_close, expected_plan_item)
KTA_ERROR(file_end, expected_declaration)
#undef KTA_ERROR

template <typename Rule>
struct control : pegtl::normal<Rule> {
  template <typename In, typename... States>
  [[noreturn]] static void raise(const In& in, States&&...) {
    throw SyntaxError{error_for<Rule>, static_cast<uint32_t>(in.current() - in.begin()), {}};
  }
};

// How the token at `offset` reads in a message, and its length for the underline.
std::pair<std::string, uint32_t> describe_token(std::string_view text, uint32_t offset) {
  if (offset >= text.size()) return {"end of file", 0};
  char c = text[offset];
  if (c == '\n' || c == '\r') return {"end of line", 0};
  auto is_word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  uint32_t n = 1;
  if (is_word(c)) {
    while (offset + n < text.size() && is_word(text[offset + n])) ++n;
  } else if (offset + 1 < text.size()) {
    std::string_view two = text.substr(offset, 2);
    for (std::string_view op : {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "..", "//", "/*"})
      if (two == op) n = 2;
  }
  if (static_cast<unsigned char>(c) >= 0x80 || (c < 0x20 && c != '\t')) {
    return {fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c)), 1};
  }
  return {"'" + std::string(text.substr(offset, n)) + "'", n};
}

}  // namespace

size_t height_of(const ast::Expr& e) {
  return std::visit(
      [](const auto& n) -> size_t {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::Unary>)
          return 1 + height(n.operand);
        else if constexpr (std::is_same_v<T, ast::Binary>)
          return 1 + std::max(height(n.lhs), height(n.rhs));
        else if constexpr (std::is_same_v<T, ast::Paren>)
          return 1 + height(n.inner);
        else if constexpr (std::is_same_v<T, ast::Span>)
          return 1 + std::max(height(n.lo), height(n.hi));
        else
          return 1;  // calls, lists and tuples are bounded by kMaxNesting
      },
      e.node);
}

std::optional<ast::File> parse_file(uint32_t file_id, DiagnosticEngine& diags) {
  const SourceManager& sm = diags.sources();
  const SourceFile& f = sm.file(file_id);
  State s{sm, file_id, f.text.data(), {}, {}};
  s.out.id = file_id;
  pegtl::memory_input<pegtl::tracking_mode::lazy> in(f.text.data(), f.text.size(), f.name);
  try {
    pegtl::parse<g::file, action, control>(in, s);
  } catch (const SyntaxError& e) {
    auto [found, len] = describe_token(f.text, e.offset);
    uint32_t begin = e.offset, end = std::min<uint32_t>(e.offset + len, uint32_t(f.text.size()));
    if (begin >= f.text.size()) {
      // At the end of the file, point just past the last token rather than at an empty line.
      while (begin > 0 && std::isspace(static_cast<unsigned char>(f.text[begin - 1]))) --begin;
      end = begin;
    }
    Msg msg = e.msg;
    if (msg == Msg::unterminated_string) begin = s.open_offset, end = begin + 1;
    if (msg == Msg::unterminated_text_block) begin = s.open_offset, end = begin + 3;
    if (msg == Msg::unterminated_comment) begin = s.open_offset, end = begin + 2;
    std::string hint;
    if (msg == Msg::expected_declaration && len > 0 &&
        std::isalpha(static_cast<unsigned char>(f.text[begin]))) {
      hint = closest_match(std::string_view(f.text).substr(begin, len),
                           {"import", "const", "tolerance", "timing", "distribution", "generator",
                            "agent", "task", "plan"});
    }
    if (!hint.empty())
      diags.report(sm.range(file_id, begin, end), Msg::unknown_declaration_hint,
                   f.text.substr(begin, len), hint);
    else
      diags.report(sm.range(file_id, begin, end), msg, e.arg.empty() ? found : e.arg);
    return std::nullopt;
  }
  for (auto& [offset, c] : s.comments) s.out.comments.push_back(std::move(c));
  return std::move(s.out);
}

}  // namespace kta::lang
