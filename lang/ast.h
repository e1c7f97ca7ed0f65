// The syntax tree of a .kta file: plain structs and variants, every node with its source range.
// Built by lang/parse.cpp, read by sema and the formatter; no PEGTL here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "lang/source.h"

namespace kta::ast {

using lang::SourceRange;

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

// Literals keep their spelling so the formatter reprints `1 << 20`, `0x1000`, `1e-5` as written.
struct IntLit {
  int64_t value = 0;
  std::string text;
};
struct FloatLit {
  double value = 0;
  std::string text;  // `0.5%` has value 0.005
};
struct StringLit {
  std::string value;  // escapes resolved; text blocks dedented
  std::string text;   // as written, quotes included
};
struct BoolLit {
  bool value = false;
};
struct DurationLit {
  int64_t ns = 0;
  std::string text;
};
struct SizeLit {
  int64_t bytes = 0;
  std::string text;
};
// A plain or qualified name: `N`, `std.tolerances.f32_strict`.
struct NameRef {
  std::string name;
};
struct Unary {
  char op = '-';  // '-' or '!'
  ExprPtr operand;
};
enum class BinOp { mul, div, mod, add, sub, shl, shr, lt, le, gt, ge, eq, ne, land, lor };
struct Binary {
  BinOp op = BinOp::add;
  ExprPtr lhs, rhs;
};
// One call argument; `name` is empty for a positional one.
struct Arg {
  std::string name;
  SourceRange name_where;
  ExprPtr value;
};
struct Call {
  std::string callee;
  SourceRange callee_where;
  std::vector<Arg> args;
};
struct List {
  std::vector<ExprPtr> items;
};
// `(x, y, z)`: launch geometry.
struct Tuple {
  std::vector<ExprPtr> items;
};
// Parentheses as written, kept for the formatter.
struct Paren {
  ExprPtr inner;
};
// `lo..hi`, only as a call argument (pow2(10..14)).
struct Span {
  ExprPtr lo, hi;
};

struct Expr {
  std::variant<IntLit, FloatLit, StringLit, BoolLit, DurationLit, SizeLit, NameRef, Unary, Binary,
               Call, List, Tuple, Paren, Span>
      node;
  SourceRange where;
};

std::string_view binop_text(BinOp op);

// `key value, value` or `key subject = value` (env) or `key { settings }`. Settings carry every
// statement that has no dedicated node: task kind/summary/bytes, plan lines, agent lines,
// tolerance, gate and timing uses, and the bodies of presets.
struct Setting {
  std::string key;
  SourceRange key_where;
  std::string subject;  // env NAME = ..., tolerance OUT = ..., gate NAME { ... }
  SourceRange subject_where;
  std::vector<ExprPtr> values;
  bool commas = false;  // values were separated by commas
  bool eq = false;      // `subject = value` form
  bool has_block = false;
  bool block_inline = false;  // the block was written on one line
  std::vector<Setting> block;
  SourceRange where;
};

struct ParamDecl {
  std::string name;
  SourceRange name_where;
  std::string type;
  SourceRange type_where;
  ExprPtr value;  // null: a shape param
  SourceRange where;
};

struct TensorDecl {
  std::string role;  // input output inout
  std::string name;
  SourceRange name_where;
  std::string dtype;
  SourceRange dtype_where;
  std::vector<ExprPtr> dims;
  ExprPtr init;  // a distribution call, or null
  SourceRange where;
};

// `reference hip "f.hip" kernel k(a, b) grid G block B shared S` and friends.
struct EntryDecl {
  std::string which;  // reference | baseline | candidate
  std::string flavor;
  SourceRange flavor_where;
  std::string file;
  SourceRange file_where;
  std::string file_text;
  std::string mode;  // kernel launcher module function
  SourceRange mode_where;
  std::string symbol;
  SourceRange symbol_where;
  bool has_args = false;
  std::vector<Arg> args;
  ExprPtr grid, block, shared;
  SourceRange where;
};

struct GridItem {
  enum class Kind { axis, derived, where } kind = Kind::axis;
  std::string name;        // empty for a tuple axis
  SourceRange name_where;  // a tuple axis: the parenthesized names
  ExprPtr expr;
  SourceRange where;
  // A tuple (zipped) axis `(D, H, W) in [(3, 5, 7), (17, 33, 65)]`: its names, in order.
  std::vector<std::string> members;
  std::vector<SourceRange> members_where;
  bool is_tuple() const { return !members.empty(); }
};

struct ShapesDecl {
  std::string which;  // visible | heldout
  SourceRange which_where;
  std::vector<GridItem> items;
  bool block_inline = false;
  ExprPtr generator;  // `= std.heldout.perturb(visible, count: 8)`, else null
  SourceRange where;
};

using TaskItem = std::variant<Setting, ParamDecl, TensorDecl, EntryDecl, ShapesDecl>;

struct Import {
  std::string module;
  SourceRange module_where;
  std::string alias;
  SourceRange alias_where;
  SourceRange where;
};

struct ConstDecl {
  std::string name;
  SourceRange name_where;
  ExprPtr value;
  SourceRange where;
};

// `tolerance NAME { ... }` and `timing NAME { ... }` presets.
struct PresetDecl {
  std::string kind;
  std::string name;
  SourceRange name_where;
  std::vector<Setting> body;
  bool body_inline = false;
  SourceRange where;
};

struct ParamSig {
  std::string name;
  SourceRange name_where;
  std::string type;
  SourceRange type_where;
  ExprPtr default_value;
};

// `agent`, `distribution` and `generator` declarations: a name, parameters, and either
// `builtin` or a body of settings.
struct CallableDecl {
  std::string kind;
  std::string name;
  SourceRange name_where;
  std::vector<ParamSig> params;
  bool builtin = false;
  std::vector<Setting> body;
  SourceRange where;
};

struct TaskDecl {
  std::string name;
  SourceRange name_where;
  std::vector<TaskItem> items;
  SourceRange where;
};

struct PlanDecl {
  std::string name;
  SourceRange name_where;
  std::vector<Setting> items;
  SourceRange where;
};

using Decl = std::variant<Import, ConstDecl, PresetDecl, CallableDecl, TaskDecl, PlanDecl>;

struct Comment {
  std::string text;  // as written, `//` or `/*` included
  uint32_t begin = 0, end = 0;
};

struct File {
  uint32_t id = 0;  // SourceManager file id
  std::vector<Decl> decls;
  std::vector<Comment> comments;  // in source order
};

SourceRange range_of(const Decl& d);
SourceRange range_of(const TaskItem& item);

}  // namespace kta::ast
