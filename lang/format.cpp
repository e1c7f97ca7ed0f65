// Formatting: statements one per line, keywords of consecutive one-line statements aligned, their
// trailing comments aligned, blank lines kept (at most one), comments kept in order.
#include "lang/format.h"

#include <fmt/format.h>

#include <dtl/dtl.hpp>
#include <functional>
#include <sstream>

#include "lang/parse.h"

namespace kta::lang {
namespace {

// One statement of a body: its first word, and a renderer for what follows it.
struct Item {
  SourceRange where;
  std::string keyword;
  std::function<std::vector<std::string>(size_t column)> render;  // column where `rest` starts
  bool alignable = true;
};

struct Line {
  std::vector<std::string> leading;  // own-line comments before it
  bool blank_before = false;
  std::string keyword;
  std::vector<std::string> rest;
  std::string trailing;
  bool alignable = true;
  const Item* item = nullptr;
  size_t cursor = 0;  // the comment cursor before rendering, to render again at another column
  size_t column = 0;
};

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(sep) : "") + parts[i];
  return out;
}

std::string spaces(size_t n) { return std::string(n, ' '); }

// Joins parts with ", ", wrapping past kFormatWidth; continuation lines start at `column`.
std::vector<std::string> wrap_list(const std::vector<std::string>& parts, size_t column,
                                   std::string_view sep = ", ") {
  std::vector<std::string> lines{""};
  size_t width = column;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string piece =
        parts[i] + (i + 1 < parts.size() ? std::string(sep).substr(0, sep.size() - 1) : "");
    bool room = width + piece.size() + (lines.back().empty() ? 0 : 1) <= kFormatWidth;
    if (!lines.back().empty() && !room) {
      lines.push_back(spaces(column));
      width = column;
    } else if (!lines.back().empty()) {
      lines.back() += ' ';
      ++width;
    }
    lines.back() += piece;
    width += piece.size();
  }
  return lines;
}

class Formatter {
 public:
  Formatter(const ast::File& file, std::string_view src) : file_(file), src_(src) {}

  std::string run() {
    std::vector<Item> items;
    for (const ast::Decl& d : file_.decls) items.push_back(decl_item(d));
    std::string out;
    for (const std::string& l : body(items, 0, uint32_t(src_.size()), 0, false)) out += l + '\n';
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out.empty() ? out : out + '\n';
  }

 private:
  // ---- comments and blank lines ----
  bool blank_between(uint32_t a, uint32_t b) const {
    if (a >= b) return false;
    int newlines = 0;
    for (uint32_t i = a; i < b && i < src_.size(); ++i) newlines += src_[i] == '\n';
    return newlines >= 2;
  }

  bool same_line(uint32_t a, uint32_t b) const {
    for (uint32_t i = a; i < b && i < src_.size(); ++i)
      if (src_[i] == '\n') return false;
    return true;
  }

  // Renders a list of statements between `open` and `close` offsets at `indent`.
  std::vector<std::string> body(const std::vector<Item>& items, uint32_t open, uint32_t close,
                                size_t indent, bool align) {
    std::vector<Line> lines;
    uint32_t prev_end = open;
    bool first = true;
    for (const Item& item : items) {
      Line line;
      while (next_ < file_.comments.size() && file_.comments[next_].begin < item.where.begin) {
        const ast::Comment& c = file_.comments[next_++];
        if (!first && blank_between(prev_end, c.begin)) line.leading.push_back("");
        line.leading.push_back(c.text);
        prev_end = c.end;
        first = false;
      }
      line.blank_before = !first && blank_between(prev_end, item.where.begin);
      line.keyword = item.keyword;
      line.alignable = align && item.alignable;
      line.column = indent + item.keyword.size() + 1;
      line.item = &item;
      line.cursor = next_;
      line.rest = item.render(line.column);
      prev_end = item.where.end;
      // Comments inside the statement (they have nowhere to stay) move before the next one.
      if (next_ < file_.comments.size() && file_.comments[next_].begin >= item.where.end &&
          same_line(item.where.end, file_.comments[next_].begin)) {
        line.trailing = file_.comments[next_].text;
        prev_end = file_.comments[next_].end;
        ++next_;
      }
      lines.push_back(std::move(line));
      first = false;
    }
    std::vector<std::string> tail;
    while (next_ < file_.comments.size() && file_.comments[next_].begin < close) {
      const ast::Comment& c = file_.comments[next_++];
      if (!first && blank_between(prev_end, c.begin)) tail.push_back("");
      tail.push_back(spaces(indent) + c.text);
      prev_end = c.end;
      first = false;
    }
    std::vector<std::string> out = emit(lines, indent);
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  }

  // True when a statement renders on one line: not wrapped, and no multi-line string in it.
  static bool one_line(const Line& l) {
    return l.rest.size() == 1 && l.rest[0].find('\n') == std::string::npos;
  }

  // Aligns runs: consecutive one-line statements with no blank line or comment between them. A
  // multi-line statement may end a run (its keyword padded with the run's) but the statements
  // after it start a new one.
  std::vector<std::string> emit(std::vector<Line>& lines, size_t indent) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < lines.size()) {
      size_t j = i + 1;
      if (lines[i].alignable) {
        while (j < lines.size() && lines[j].alignable && !lines[j].blank_before &&
               lines[j].leading.empty() && one_line(lines[j - 1]))
          ++j;
      }
      size_t width = 0;
      for (size_t k = i; k < j; ++k) width = std::max(width, lines[k].keyword.size());
      std::vector<std::vector<std::string>> texts;
      for (size_t k = i; k < j; ++k) {
        Line& l = lines[k];
        size_t pad = (j - i > 1 ? width : l.keyword.size()) - l.keyword.size();
        if (pad > 0) {
          // Wrapped values continue under the padded column: render again there.
          size_t saved = next_;
          next_ = l.cursor;
          l.rest = l.item->render(l.column + pad);
          next_ = saved;
        }
        std::vector<std::string> t;
        for (size_t r = 0; r < l.rest.size(); ++r) {
          if (r == 0)
            t.push_back(spaces(indent) + l.keyword +
                        (l.rest[0].empty() ? "" : spaces(pad + 1) + l.rest[0]));
          else
            t.push_back(l.rest[r]);
        }
        texts.push_back(std::move(t));
      }
      // Trailing comments of consecutive lines line up two spaces after the longest of them.
      for (size_t k = i; k < j;) {
        if (lines[k].trailing.empty()) {
          ++k;
          continue;
        }
        size_t e = k;
        size_t col = 0;
        while (e < j && !lines[e].trailing.empty())
          col = std::max(col, texts[e - i].back().size()), ++e;
        for (size_t x = k; x < e; ++x) {
          std::string& last = texts[x - i].back();
          last += spaces(col - last.size() + 2) + lines[x].trailing;
        }
        k = e;
      }
      for (size_t k = i; k < j; ++k) {
        for (const std::string& c : lines[k].leading)
          out.push_back(c.empty() ? "" : spaces(indent) + c);
        if (lines[k].blank_before) out.push_back("");
        for (std::string& t : texts[k - i]) out.push_back(std::move(t));
      }
      i = j;
    }
    return out;
  }

  // ---- declarations ----
  Item decl_item(const ast::Decl& d) {
    return std::visit([&](const auto& x) { return item_of(x); }, d);
  }

  Item item_of(const ast::Import& x) {
    return {x.where, "import",
            [&x](size_t) {
              return std::vector<std::string>{x.module + (x.alias.empty() ? "" : " as " + x.alias)};
            },
            false};
  }
  Item item_of(const ast::ConstDecl& x) {
    return {
        x.where, "const",
        [&x](size_t) { return std::vector<std::string>{x.name + " = " + format_expr(*x.value)}; },
        false};
  }
  Item item_of(const ast::PresetDecl& x) {
    return {x.where, x.kind,
            [this, &x](size_t column) {
              return block_lines(x.name + " ", x.body, x.body_inline, column - x.kind.size() - 1,
                                 x.where);
            },
            false};
  }
  Item item_of(const ast::CallableDecl& x) {
    return {x.where, x.kind,
            [this, &x](size_t column) {
              std::vector<std::string> sigs;
              for (const ast::ParamSig& p : x.params)
                sigs.push_back(p.name + ": " + p.type +
                               (p.default_value ? " = " + format_expr(*p.default_value) : ""));
              std::vector<std::string> head = wrap_list(sigs, column + x.name.size() + 1);
              head.front() = x.name + "(" + head.front();
              head.back() += ")";
              if (sigs.empty()) head = {x.name + "()"};
              if (x.builtin) {
                head.back() += " builtin";
                return head;
              }
              head.back() += " {";
              size_t indent = column - x.kind.size() - 1;
              std::vector<Item> items;
              for (const ast::Setting& s : x.body) items.push_back(setting_item(s, indent + 2));
              for (auto& l : body(items, x.where.begin, x.where.end, indent + 2, true))
                head.push_back(std::move(l));
              head.push_back(spaces(indent) + "}");
              return head;
            },
            false};
  }
  Item item_of(const ast::TaskDecl& x) {
    return {x.where, "task",
            [this, &x](size_t column) {
              size_t indent = column - 5;
              std::vector<std::string> out{x.name + " {"};
              std::vector<Item> items;
              for (const ast::TaskItem& t : x.items) items.push_back(task_item(t, indent + 2));
              for (auto& l : body(items, x.where.begin, x.where.end, indent + 2, true))
                out.push_back(std::move(l));
              out.push_back(spaces(indent) + "}");
              return out;
            },
            false};
  }
  Item item_of(const ast::PlanDecl& x) {
    return {x.where, "plan",
            [this, &x](size_t column) {
              size_t indent = column - 5;
              std::vector<std::string> out{x.name + " {"};
              std::vector<Item> items;
              for (const ast::Setting& s : x.items) items.push_back(setting_item(s, indent + 2));
              for (auto& l : body(items, x.where.begin, x.where.end, indent + 2, true))
                out.push_back(std::move(l));
              out.push_back(spaces(indent) + "}");
              return out;
            },
            false};
  }

  // `{ a 1  b 2 }` when written on one line, else one setting per line.
  std::vector<std::string> block_lines(std::string head, const std::vector<ast::Setting>& block,
                                       bool inline_block, size_t indent, SourceRange where) {
    bool has_comments = false;
    for (size_t i = next_; i < file_.comments.size() && file_.comments[i].begin < where.end; ++i)
      has_comments |= file_.comments[i].begin >= where.begin;
    if (block.empty() && !has_comments) return {head + "{}"};
    if (inline_block && !has_comments) {
      std::vector<std::string> parts;
      for (const ast::Setting& s : block) parts.push_back(s.key + " " + format_expr(*s.values[0]));
      return {head + "{ " + join(parts, "  ") + " }"};
    }
    std::vector<std::string> out{head + "{"};
    std::vector<Item> items;
    for (const ast::Setting& s : block)
      items.push_back({s.where, s.key,
                       [&s](size_t) { return std::vector<std::string>{format_expr(*s.values[0])}; },
                       true});
    uint32_t open = where.begin;
    for (auto& l : body(items, open, where.end, indent + 2, true)) out.push_back(std::move(l));
    out.push_back(spaces(indent) + "}");
    return out;
  }

  Item setting_item(const ast::Setting& s, size_t indent) {
    return {s.where, s.key,
            [this, &s, indent](size_t column) {
              std::string head;
              if (!s.subject.empty()) head = s.subject + (s.eq ? " = " : " ");
              if (s.has_block) return block_lines(head, s.block, s.block_inline, indent, s.where);
              std::vector<std::string> parts;
              for (const auto& v : s.values) parts.push_back(format_expr(*v));
              std::vector<std::string> lines = s.commas
                                                   ? wrap_list(parts, column + head.size())
                                                   : std::vector<std::string>{join(parts, " ")};
              lines.front() = head + lines.front();
              return lines;
            },
            s.key != "tolerance" && s.key != "gate"};
  }

  // `flavor "file" mode [symbol][(args)] [grid G] [block B] [shared S]` on one line.
  static std::string entry_text(const ast::EntryDecl& e) {
    std::string s = e.flavor + " " + e.file_text + " " + e.mode;
    if (!e.symbol.empty()) s += " " + e.symbol;
    if (e.has_args) {
      std::vector<std::string> args;
      for (const ast::Arg& a : e.args)
        args.push_back((a.name.empty() ? "" : a.name + ": ") + format_expr(*a.value));
      s += "(" + join(args, ", ") + ")";
    }
    if (e.grid) s += " grid " + format_expr(*e.grid);
    if (e.block) s += " block " + format_expr(*e.block);
    if (e.shared) s += " shared " + format_expr(*e.shared);
    return s;
  }

  // `N`, or a tuple axis's `(D, H, W)`.
  static std::string axis_label(const ast::GridItem& g) {
    return g.is_tuple() ? "(" + join(g.members, ", ") + ")" : g.name;
  }

  static std::string grid_item_text(const ast::GridItem& g) {
    if (g.kind == ast::GridItem::Kind::where) return "where " + format_expr(*g.expr);
    return axis_label(g) + (g.kind == ast::GridItem::Kind::axis ? " in " : " = ") +
           format_expr(*g.expr);
  }

  // `which = generator(...)`, `which {}`, `which { a in ..; b = .. }` when written inline
  // without comments, else one grid item per line with the comments among them.
  std::vector<std::string> shapes_lines(const ast::ShapesDecl& sh, size_t indent) {
    if (sh.generator)
      return std::vector<std::string>{sh.which + " = " + format_expr(*sh.generator)};
    bool has_comments = false;
    for (size_t i = next_; i < file_.comments.size() && file_.comments[i].begin < sh.where.end; ++i)
      has_comments |= file_.comments[i].begin >= sh.where.begin;
    if (sh.items.empty() && !has_comments) return std::vector<std::string>{sh.which + " {}"};
    if (sh.block_inline && !has_comments) {
      std::vector<std::string> parts;
      for (const auto& g : sh.items) parts.push_back(grid_item_text(g));
      return std::vector<std::string>{sh.which + " { " + join(parts, "; ") + " }"};
    }
    std::vector<std::string> out{sh.which + " {"};
    std::vector<Item> items;
    for (const auto& g : sh.items) {
      std::string kw = g.kind == ast::GridItem::Kind::where ? "where" : axis_label(g);
      items.push_back({g.where, kw,
                       [&g](size_t) {
                         if (g.kind == ast::GridItem::Kind::where)
                           return std::vector<std::string>{format_expr(*g.expr)};
                         return std::vector<std::string>{
                             (g.kind == ast::GridItem::Kind::axis ? "in " : "= ") +
                             format_expr(*g.expr)};
                       },
                       g.kind != ast::GridItem::Kind::where});
    }
    for (auto& l : body(items, sh.where.begin, sh.where.end, indent + 2, true))
      out.push_back(std::move(l));
    out.push_back(spaces(indent) + "}");
    return out;
  }

  Item task_item(const ast::TaskItem& t, size_t indent) {
    if (const auto* s = std::get_if<ast::Setting>(&t)) return setting_item(*s, indent);
    if (const auto* p = std::get_if<ast::ParamDecl>(&t)) {
      return {p->where, "param", [p](size_t) {
                return std::vector<std::string>{p->name + ": " + p->type +
                                                (p->value ? " = " + format_expr(*p->value) : "")};
              }};
    }
    if (const auto* x = std::get_if<ast::TensorDecl>(&t)) {
      return {x->where, x->role, [x](size_t) {
                std::vector<std::string> dims;
                for (const auto& d : x->dims) dims.push_back(format_expr(*d));
                return std::vector<std::string>{x->name + ": " + x->dtype + "[" + join(dims, ", ") +
                                                "]" +
                                                (x->init ? " = " + format_expr(*x->init) : "")};
              }};
    }
    if (const auto* e = std::get_if<ast::EntryDecl>(&t))
      return {e->where, e->which, [e](size_t) { return std::vector<std::string>{entry_text(*e)}; }};
    const auto& sh = std::get<ast::ShapesDecl>(t);
    return {sh.where, "shapes", [this, &sh, indent](size_t) { return shapes_lines(sh, indent); },
            false};
  }

  const ast::File& file_;
  std::string_view src_;
  size_t next_ = 0;
};

}  // namespace

std::string format_expr(const ast::Expr& e) {
  return std::visit(
      [](const auto& n) -> std::string {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::IntLit> || std::is_same_v<T, ast::FloatLit> ||
                      std::is_same_v<T, ast::StringLit> || std::is_same_v<T, ast::DurationLit> ||
                      std::is_same_v<T, ast::SizeLit>)
          return n.text;
        else if constexpr (std::is_same_v<T, ast::BoolLit>)
          return n.value ? "true" : "false";
        else if constexpr (std::is_same_v<T, ast::NameRef>)
          return n.name;
        else if constexpr (std::is_same_v<T, ast::Unary>)
          return std::string(1, n.op) + format_expr(*n.operand);
        else if constexpr (std::is_same_v<T, ast::Binary>)
          return format_expr(*n.lhs) + " " + std::string(ast::binop_text(n.op)) + " " +
                 format_expr(*n.rhs);
        else if constexpr (std::is_same_v<T, ast::Paren>)
          return "(" + format_expr(*n.inner) + ")";
        else if constexpr (std::is_same_v<T, ast::Span>)
          return format_expr(*n.lo) + ".." + format_expr(*n.hi);
        else if constexpr (std::is_same_v<T, ast::Call>) {
          std::vector<std::string> args;
          for (const ast::Arg& a : n.args)
            args.push_back((a.name.empty() ? "" : a.name + ": ") + format_expr(*a.value));
          return n.callee + "(" + join(args, ", ") + ")";
        } else {
          std::vector<std::string> items;
          for (const auto& i : n.items) items.push_back(format_expr(*i));
          if constexpr (std::is_same_v<T, ast::List>)
            return "[" + join(items, ", ") + "]";
          else
            return "(" + join(items, ", ") + ")";
        }
      },
      e.node);
}

std::string format_file(const ast::File& file, std::string_view source) {
  return Formatter(file, source).run();
}

std::optional<std::string> format_source(uint32_t file_id, DiagnosticEngine& diags) {
  auto file = parse_file(file_id, diags);
  if (!file) return std::nullopt;
  return format_file(*file, diags.sources().file(file_id).text);
}

namespace {
std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}
}  // namespace

std::string format_diff(const std::string& name, std::string_view before, std::string_view after) {
  std::vector<std::string> a = split_lines(before), b = split_lines(after);
  dtl::Diff<std::string, std::vector<std::string>> diff(a, b);
  diff.onHuge();
  diff.compose();
  diff.composeUnifiedHunks();
  std::ostringstream out;
  out << "--- " << name << "\n+++ " << name << " (formatted)\n";
  diff.printUnifiedFormat(out);
  return out.str();
}

}  // namespace kta::lang
