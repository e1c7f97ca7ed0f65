// Sema basics shared by every pass: name resolution, constants, expression types, setting values
// and call binding.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {

const char* decl_kind(const ast::Decl& d) {
  return std::visit(
      [](const auto& x) -> const char* {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ast::Import>)
          return "module";
        else if constexpr (std::is_same_v<T, ast::ConstDecl>)
          return "constant";
        else if constexpr (std::is_same_v<T, ast::PresetDecl>)
          return x.kind == "tolerance" ? "tolerance preset" : "timing preset";
        else if constexpr (std::is_same_v<T, ast::CallableDecl>)
          return x.kind == "agent" ? "agent" : x.kind == "generator" ? "generator" : "distribution";
        else if constexpr (std::is_same_v<T, ast::TaskDecl>)
          return "task";
        else
          return "plan";
      },
      d);
}

namespace {

std::vector<std::string> keys_of(const std::map<std::string, const ast::Decl*>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

Ty type_of(const model::Value& v) {
  switch (v.index()) {
    case 0:
      return Ty::integer;
    case 1:
      return Ty::number;
    case 2:
      return Ty::boolean;
    default:
      return Ty::string;
  }
}

bool numeric(Ty t) { return t == Ty::integer || t == Ty::number || t == Ty::any; }

struct Builtin {
  std::string_view name;
  int args;  // -1: one or more
};
constexpr Builtin kBuiltins[] = {{"ceil_div", 2}, {"align_up", 2}, {"min", -1}, {"max", -1},
                                 {"log2", 1},     {"abs", 1},      {"sqrt", 1}};

std::string source_text(DiagnosticEngine& d, SourceRange r) {
  if (r.file == 0) return "";
  const std::string& t = d.sources().file(r.file).text;
  return t.substr(r.begin, r.end - r.begin);
}

}  // namespace

const char* type_name(Ty t) {
  switch (t) {
    case Ty::integer:
      return "an integer";
    case Ty::number:
      return "a number";
    case Ty::boolean:
      return "a bool";
    case Ty::string:
      return "a string";
    case Ty::duration:
      return "a duration";
    case Ty::list:
      return "a list";
    case Ty::tuple:
      return "a tuple";
    case Ty::call:
      return "a call";
    case Ty::any:
      return "a value";
  }
  return "a value";
}

std::optional<Resolved> Sema::resolve(Module& from, const std::string& name, SourceRange where,
                                      bool report) {
  size_t dot = name.rfind('.');
  if (dot == std::string::npos) {
    if (auto it = from.decls.find(name); it != from.decls.end())
      return Resolved{&from, it->second, name};
    if (report) {
      std::vector<std::string> cands = keys_of(from.decls);
      std::string hint = closest_match(name, cands);
      if (hint.empty())
        diags().report(where, Msg::unknown_name, name);
      else
        diags().report(where, Msg::unknown_name_hint, name, hint);
    }
    return std::nullopt;
  }
  for (size_t cut = dot; cut != std::string::npos && cut > 0; cut = name.rfind('.', cut - 1)) {
    std::string prefix = name.substr(0, cut), member = name.substr(cut + 1);
    auto it = from.imports.find(prefix);
    if (it == from.imports.end()) {
      // An import that failed was reported already; don't pile errors on its uses.
      for (const ast::Decl& d : from.ast.decls)
        if (auto* imp = std::get_if<ast::Import>(&d);
            imp && (imp->alias.empty() ? imp->module : imp->alias) == prefix)
          return std::nullopt;
      continue;
    }
    Module* m = it->second;
    if (member.find('.') == std::string::npos) {
      if (auto d = m->decls.find(member); d != m->decls.end()) return Resolved{m, d->second, name};
    }
    if (report) {
      std::string hint = closest_match(member, keys_of(m->decls));
      if (hint.empty())
        diags().report(where, Msg::unknown_in_module, prefix, member);
      else
        diags().report(where, Msg::unknown_in_module_hint, prefix, member, hint);
    }
    return std::nullopt;
  }
  if (report) {
    std::vector<std::string> cands;
    for (const auto& [k, v] : from.imports) cands.push_back(k);
    std::string hint = closest_match(name.substr(0, dot), cands);
    if (hint.empty())
      diags().report(where, Msg::unknown_name, name);
    else
      diags().report(where, Msg::unknown_name_hint, name, hint + name.substr(dot));
  }
  return std::nullopt;
}

std::optional<model::Value> Sema::const_value(Module& m, const ast::ConstDecl& c) {
  if (auto it = const_values_.find(&c); it != const_values_.end()) return it->second;
  if (evaluating_.count(&c)) {
    diags().report(c.name_where, Msg::const_cycle, c.name);
    return std::nullopt;
  }
  evaluating_.insert(&c);
  std::optional<model::Value> v;
  size_t before = diags().error_count();
  check_expr(*c.value, Scope{&m, {}, false});
  if (diags().error_count() == before) v = eval_const(*c.value, m, c.name);
  evaluating_.erase(&c);
  const_values_[&c] = v;
  return v;
}

namespace {

// An unknown unqualified name, with the closest param or constant as a hint.
void report_unknown_name(Sema& sema, const std::string& name, SourceRange where,
                         const Scope& scope) {
  std::vector<std::string> cands;
  for (const auto& [k, v] : scope.names) cands.push_back(k);
  for (const auto& [k, d] : scope.module->decls)
    if (std::holds_alternative<ast::ConstDecl>(*d)) cands.push_back(k);
  std::string hint = closest_match(name, cands);
  if (scope.names_are_params) {
    if (hint.empty())
      sema.diags().report(where, Msg::unknown_param, name);
    else
      sema.diags().report(where, Msg::unknown_param_hint, name, hint);
  } else {
    if (hint.empty())
      sema.diags().report(where, Msg::unknown_name, name);
    else
      sema.diags().report(where, Msg::unknown_name_hint, name, hint);
  }
}

// A name: a scope name (param, axis), else a constant of the module or an import.
Ty check_name(Sema& sema, const ast::NameRef& n, SourceRange where, const Scope& scope) {
  if (auto it = scope.names.find(n.name); it != scope.names.end()) return it->second;
  bool qualified = n.name.find('.') != std::string::npos;
  auto r = sema.resolve(*scope.module, n.name, where, qualified);
  if (r) {
    if (const auto* c = std::get_if<ast::ConstDecl>(r->decl)) {
      auto v = sema.const_value(*r->module, *c);
      return v ? type_of(*v) : Ty::any;
    }
    sema.diags().report(where, Msg::wrong_decl_kind, n.name, decl_kind(*r->decl), "constant");
    return Ty::any;
  }
  if (!qualified) report_unknown_name(sema, n.name, where, scope);
  return Ty::any;
}

Ty check_unary(Sema& sema, const ast::Unary& n, SourceRange where, const Scope& scope) {
  Ty t = sema.check_expr(*n.operand, scope);
  if (n.op == '!') {
    if (t != Ty::boolean && t != Ty::any)
      sema.diags().report(where, Msg::type_mismatch, "the operand of '!'", "a bool", type_name(t));
    return Ty::boolean;
  }
  if (!numeric(t) && t != Ty::duration)
    sema.diags().report(where, Msg::type_mismatch, "the operand of '-'", "a number", type_name(t));
  return t;
}

// `+ - * /` of numbers and durations (a duration scales by a number, not the other way round
// for `/`); nullopt when the operands do not fit.
std::optional<Ty> arithmetic_type(ast::BinOp op, Ty a, Ty b) {
  using ast::BinOp;
  if (numeric(a) && numeric(b))
    return a == Ty::number || b == Ty::number ? Ty::number : Ty::integer;
  if (a == Ty::duration && b == Ty::duration && (op == BinOp::add || op == BinOp::sub))
    return Ty::duration;
  if (a == Ty::duration && numeric(b) && (op == BinOp::mul || op == BinOp::div))
    return Ty::duration;
  if (numeric(a) && b == Ty::duration && op == BinOp::mul) return Ty::duration;
  return std::nullopt;
}

// The type of `a op b` for known operand types; nullopt when they do not fit the operator.
std::optional<Ty> binary_type(ast::BinOp op, Ty a, Ty b) {
  using ast::BinOp;
  switch (op) {
    case BinOp::land:
    case BinOp::lor:
      if (a != Ty::boolean || b != Ty::boolean) return std::nullopt;
      return Ty::boolean;
    case BinOp::eq:
    case BinOp::ne:
      if (numeric(a) != numeric(b) || (!numeric(a) && a != b)) return std::nullopt;
      return Ty::boolean;
    case BinOp::lt:
    case BinOp::le:
    case BinOp::gt:
    case BinOp::ge:
      if (!(numeric(a) && numeric(b)) && !(a == Ty::duration && b == Ty::duration))
        return std::nullopt;
      return Ty::boolean;
    case BinOp::shl:
    case BinOp::shr:
    case BinOp::mod:
      if (a != Ty::integer || b != Ty::integer) return std::nullopt;
      return Ty::integer;
    default:
      return arithmetic_type(op, a, b);
  }
}

Ty check_binary(Sema& sema, const ast::Binary& n, SourceRange where, const Scope& scope) {
  Ty a = sema.check_expr(*n.lhs, scope), b = sema.check_expr(*n.rhs, scope);
  if (a == Ty::any || b == Ty::any) {
    bool cmp = n.op >= ast::BinOp::lt;
    return cmp ? Ty::boolean : (a == Ty::any ? b : a);
  }
  if (std::optional<Ty> t = binary_type(n.op, a, b)) return *t;
  sema.diags().report(where, Msg::operand_mismatch, ast::binop_text(n.op), type_name(a),
                      type_name(b));
  return Ty::any;
}

// A call of a builtin: numeric arguments, their count; integer or number result.
Ty check_builtin_call(Sema& sema, const Builtin& b, const ast::Call& n, SourceRange where,
                      const Scope& scope) {
  Ty result = Ty::integer;
  for (const ast::Arg& arg : n.args) {
    Ty t = sema.check_expr(*arg.value, scope);
    if (t == Ty::number) result = Ty::number;
    if (!numeric(t))
      sema.diags().report(arg.value->where, Msg::type_mismatch,
                          fmt::format("an argument of '{}'", n.callee), "a number", type_name(t));
  }
  if (b.args > 0 && n.args.size() != size_t(b.args))
    sema.diags().report(where, Msg::argument_count, n.callee, b.args, n.args.size());
  if (b.args < 0 && n.args.empty())
    sema.diags().report(where, Msg::argument_count, n.callee, "1 or more", 0);
  if (n.callee == "ceil_div" || n.callee == "align_up" || n.callee == "log2") return Ty::integer;
  if (n.callee == "sqrt") return Ty::number;
  return result;
}

// A call: a builtin, else a callable declaration (a distribution, generator or agent use).
Ty check_call(Sema& sema, const ast::Call& n, SourceRange where, const Scope& scope) {
  for (const Builtin& b : kBuiltins)
    if (b.name == n.callee) return check_builtin_call(sema, b, n, where, scope);
  if (auto r = sema.resolve(*scope.module, n.callee, n.callee_where, false)) {
    if (std::holds_alternative<ast::CallableDecl>(*r->decl)) return Ty::call;
  }
  std::vector<std::string> cands;
  for (const Builtin& b : kBuiltins) cands.emplace_back(b.name);
  std::string hint = closest_match(n.callee, cands);
  if (hint.empty())
    sema.diags().report(n.callee_where, Msg::unknown_function, n.callee);
  else
    sema.diags().report(n.callee_where, Msg::unknown_function_hint, n.callee, hint);
  return Ty::any;
}

}  // namespace

Ty Sema::check_expr(const ast::Expr& e, const Scope& scope) {
  return std::visit(
      [&](const auto& n) -> Ty {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::IntLit> || std::is_same_v<T, ast::SizeLit>)
          return Ty::integer;
        else if constexpr (std::is_same_v<T, ast::FloatLit>)
          return Ty::number;
        else if constexpr (std::is_same_v<T, ast::StringLit>)
          return Ty::string;
        else if constexpr (std::is_same_v<T, ast::BoolLit>)
          return Ty::boolean;
        else if constexpr (std::is_same_v<T, ast::DurationLit>)
          return Ty::duration;
        else if constexpr (std::is_same_v<T, ast::Paren>)
          return check_expr(*n.inner, scope);
        else if constexpr (std::is_same_v<T, ast::List> || std::is_same_v<T, ast::Tuple>) {
          for (const auto& item : n.items) check_expr(*item, scope);
          return std::is_same_v<T, ast::List> ? Ty::list : Ty::tuple;
        } else if constexpr (std::is_same_v<T, ast::Span>) {
          check_expr(*n.lo, scope);
          check_expr(*n.hi, scope);
          return Ty::any;
        } else if constexpr (std::is_same_v<T, ast::NameRef>)
          return check_name(*this, n, e.where, scope);
        else if constexpr (std::is_same_v<T, ast::Unary>)
          return check_unary(*this, n, e.where, scope);
        else if constexpr (std::is_same_v<T, ast::Binary>)
          return check_binary(*this, n, e.where, scope);
        else  // Call
          return check_call(*this, n, e.where, scope);
      },
      e.node);
}

std::optional<model::Value> Sema::eval_const(const ast::Expr& e, Module& m,
                                             const std::string& what) {
  NameLookup lookup = [&](const std::string& name) -> std::optional<model::Value> {
    auto r = resolve(m, name, e.where, false);
    if (!r) return std::nullopt;
    if (const auto* c = std::get_if<ast::ConstDecl>(r->decl)) return const_value(*r->module, *c);
    return std::nullopt;
  };
  try {
    return evaluate(e, lookup);
  } catch (const EvalError& err) {
    SourceRange at = err.where.file ? err.where : e.where;
    diags().report(at, Msg::eval_error, what.empty() ? source_text(diags(), e.where) : what,
                   err.what());
    return std::nullopt;
  }
}

ast::ExprPtr Sema::lower_expr(const ast::ExprPtr& e, Module& m) {
  if (!e) return e;
  auto out = std::make_shared<ast::Expr>(*e);
  std::visit(
      [&](auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::NameRef>) {
          auto r = resolve(m, n.name, e->where, false);
          if (!r) return;
          const auto* c = std::get_if<ast::ConstDecl>(r->decl);
          if (!c) return;
          auto v = const_value(*r->module, *c);
          if (!v) return;
          std::visit(
              [&](const auto& x) {
                using V = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<V, int64_t>)
                  out->node = ast::IntLit{x, std::to_string(x)};
                else if constexpr (std::is_same_v<V, double>)
                  out->node = ast::FloatLit{x, fmt::format("{}", x)};
                else if constexpr (std::is_same_v<V, bool>)
                  out->node = ast::BoolLit{x};
                else
                  out->node = ast::StringLit{x, "\"" + x + "\""};
              },
              *v);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          n.operand = lower_expr(n.operand, m);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          n.lhs = lower_expr(n.lhs, m);
          n.rhs = lower_expr(n.rhs, m);
        } else if constexpr (std::is_same_v<T, ast::Paren>) {
          n.inner = lower_expr(n.inner, m);
        } else if constexpr (std::is_same_v<T, ast::Span>) {
          n.lo = lower_expr(n.lo, m);
          n.hi = lower_expr(n.hi, m);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          for (auto& a : n.args) a.value = lower_expr(a.value, m);
        } else if constexpr (std::is_same_v<T, ast::List> || std::is_same_v<T, ast::Tuple>) {
          for (auto& item : n.items) item = lower_expr(item, m);
        }
      },
      out->node);
  return out;
}

// ---- settings ----
const ast::Expr* Sema::single_value(const ast::Setting& s) {
  if (s.has_block) {
    diags().report(s.key_where, Msg::type_mismatch, fmt::format("'{}'", s.key), "a value",
                   "a block");
    return nullptr;
  }
  if (s.values.size() != 1) {
    diags().report(s.where, Msg::setting_arity, s.key, "one", s.values.size());
    return nullptr;
  }
  return s.values[0].get();
}

std::optional<std::string> Sema::word(const ast::Setting& s,
                                      std::initializer_list<std::string_view> allowed) {
  const ast::Expr* v = single_value(s);
  if (!v) return std::nullopt;
  std::string text;
  if (const auto* n = std::get_if<ast::NameRef>(&v->node))
    text = n->name;
  else if (const auto* str = std::get_if<ast::StringLit>(&v->node))
    text = str->value;
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  for (auto a : allowed)
    if (a == text) return text;
  if (text.empty()) text = source_text(diags(), v->where);
  diags().report(v->where, Msg::bad_enum, fmt::format("'{}'", s.key), list, text);
  return std::nullopt;
}

namespace {
template <typename F>
auto typed_value(Sema& sema, const ast::Setting& s, Module& m, Ty want, F&& convert)
    -> std::optional<decltype(convert(model::Value{}))> {
  const ast::Expr* v = sema.single_value(s);
  if (!v) return std::nullopt;
  size_t before = sema.diags().error_count();
  Ty t = sema.check_expr(*v, Scope{&m, {}, false});
  if (sema.diags().error_count() != before) return std::nullopt;
  bool ok = t == want || t == Ty::any || (want == Ty::number && t == Ty::integer);
  if (!ok) {
    sema.diags().report(v->where, Msg::type_mismatch, fmt::format("'{}'", s.key), type_name(want),
                        type_name(t));
    return std::nullopt;
  }
  auto val = sema.eval_const(*v, m, "");
  if (!val) return std::nullopt;
  return convert(*val);
}
}  // namespace

std::optional<std::string> Sema::string_value(const ast::Setting& s, Module& m) {
  return typed_value(*this, s, m, Ty::string, [](const model::Value& v) {
    return std::holds_alternative<std::string>(v) ? std::get<std::string>(v) : std::string();
  });
}

std::optional<int64_t> Sema::int_value(const ast::Setting& s, Module& m, int64_t min) {
  auto v = typed_value(*this, s, m, Ty::integer, [](const model::Value& x) {
    return std::holds_alternative<int64_t>(x) ? std::get<int64_t>(x) : int64_t{0};
  });
  if (v && *v < min) {
    diags().report(s.values[0]->where, Msg::value_out_of_range, fmt::format("'{}'", s.key),
                   fmt::format("at least {}", min), *v);
    return std::nullopt;
  }
  return v;
}

std::optional<double> Sema::number_value(const ast::Setting& s, Module& m) {
  return typed_value(*this, s, m, Ty::number, [](const model::Value& x) {
    if (std::holds_alternative<int64_t>(x)) return static_cast<double>(std::get<int64_t>(x));
    return std::holds_alternative<double>(x) ? std::get<double>(x) : 0.0;
  });
}

std::optional<int64_t> Sema::duration_value(const ast::Setting& s, Module& m) {
  return typed_value(*this, s, m, Ty::duration, [](const model::Value& x) {
    return std::holds_alternative<int64_t>(x) ? std::get<int64_t>(x) : int64_t{0};
  });
}

std::optional<bool> Sema::bool_value(const ast::Setting& s, Module& m) {
  if (const ast::Expr* v = s.values.size() == 1 && !s.has_block ? s.values[0].get() : nullptr) {
    if (const auto* n = std::get_if<ast::NameRef>(&v->node);
        n && (n->name == "on" || n->name == "off"))
      return n->name == "on";
  }
  return typed_value(*this, s, m, Ty::boolean, [](const model::Value& x) {
    return std::holds_alternative<bool>(x) && std::get<bool>(x);
  });
}

// ---- calls ----
std::optional<std::pair<const ast::CallableDecl*, Module*>> Sema::callable(const ast::Call& call,
                                                                           Module& from,
                                                                           std::string_view kind) {
  auto r = resolve(from, call.callee, call.callee_where, true);
  if (!r) return std::nullopt;
  const auto* c = std::get_if<ast::CallableDecl>(r->decl);
  if (!c || c->kind != kind) {
    diags().report(call.callee_where, Msg::wrong_decl_kind, call.callee, decl_kind(*r->decl), kind);
    return std::nullopt;
  }
  return std::make_pair(c, r->module);
}

namespace {

// Converts an argument value to a parameter type; an error text when it does not fit.
std::optional<std::string> convert_arg(const std::string& type, Ty ty, model::Value& v) {
  bool is_int = std::holds_alternative<int64_t>(v);
  if (type == "i32" || type == "i64" || type == "u32" || type == "u64" || type == "size") {
    if (!is_int || ty == Ty::duration) return std::string("an integer");
    int64_t x = std::get<int64_t>(v);
    if (type[0] == 'u' && x < 0) return std::string("a non-negative integer");
    if (type == "i32" && (x < INT32_MIN || x > INT32_MAX)) return std::string("a 32-bit integer");
    if (type == "u32" && x > UINT32_MAX) return std::string("a 32-bit unsigned integer");
    return std::nullopt;
  }
  if (type == "f32" || type == "f64") {
    if (is_int) v = static_cast<double>(std::get<int64_t>(v));
    if (!std::holds_alternative<double>(v) || ty == Ty::duration) return std::string("a number");
    return std::nullopt;
  }
  if (type == "bool")
    return std::holds_alternative<bool>(v) ? std::nullopt : std::optional<std::string>("a bool");
  if (type == "string")
    return std::holds_alternative<std::string>(v) ? std::nullopt
                                                  : std::optional<std::string>("a string");
  if (type == "duration")
    return ty == Ty::duration || ty == Ty::any ? std::nullopt
                                               : std::optional<std::string>("a duration");
  return std::nullopt;
}

}  // namespace

namespace {

// The parameter each argument of `call` gives (positional ones in order, then keywords):
// reports positional after keyword, too many, unknown and repeated arguments.
std::map<std::string, const ast::Arg*> match_args(Sema& sema, const ast::Call& call,
                                                  const ast::CallableDecl& decl, size_t skip) {
  DiagnosticEngine& d = sema.diags();
  std::map<std::string, const ast::Arg*> given;
  bool keyword_seen = false;
  size_t positional = 0;
  for (size_t i = skip; i < call.args.size(); ++i) {
    const ast::Arg& a = call.args[i];
    std::string name = a.name;
    if (name.empty()) {
      if (keyword_seen) {
        d.report(a.value->where, Msg::positional_after_keyword);
        continue;
      }
      if (positional >= decl.params.size()) {
        d.report(a.value->where, Msg::too_many_arguments, call.callee, decl.params.size(),
                 call.args.size() - skip);
        continue;
      }
      name = decl.params[positional++].name;
    } else {
      keyword_seen = true;
      bool known = false;
      std::vector<std::string> cands;
      for (const ast::ParamSig& p : decl.params) {
        known |= p.name == name;
        cands.push_back(p.name);
      }
      if (!known) {
        std::string hint = closest_match(name, cands);
        if (hint.empty())
          d.report(a.name_where, Msg::unknown_argument, call.callee, name);
        else
          d.report(a.name_where, Msg::unknown_argument_hint, call.callee, name, hint);
        continue;
      }
    }
    if (given.count(name)) {
      d.report(a.name.empty() ? a.value->where : a.name_where, Msg::duplicate_argument, name);
      continue;
    }
    given[name] = &a;
  }
  return given;
}

}  // namespace

std::map<std::string, Sema::BoundExpr> Sema::call_exprs(const ast::Call& call, Module& from,
                                                        const ast::CallableDecl& decl,
                                                        Module& decl_module, size_t skip) {
  std::map<std::string, BoundExpr> out;
  std::map<std::string, const ast::Arg*> given = match_args(*this, call, decl, skip);
  for (const ast::ParamSig& p : decl.params) {
    if (auto it = given.find(p.name); it != given.end())
      out[p.name] = {it->second->value.get(), &from};
    else if (p.default_value)
      out[p.name] = {p.default_value.get(), &decl_module};
    else
      diags().report(call.callee_where, Msg::missing_argument, p.name, call.callee);
  }
  return out;
}

std::optional<std::map<std::string, model::Value>> Sema::bind_call(const ast::Call& call,
                                                                   Module& from,
                                                                   const ast::CallableDecl& decl,
                                                                   Module& decl_module,
                                                                   size_t skip) {
  std::map<std::string, model::Value> out;
  size_t before = diags().error_count();
  std::map<std::string, BoundExpr> exprs = call_exprs(call, from, decl, decl_module, skip);
  for (const ast::ParamSig& p : decl.params) {
    auto it = exprs.find(p.name);
    if (p.type[0] == '[' || it == exprs.end()) continue;
    const ast::Expr* e = it->second.expr;
    Module* m = it->second.module;
    size_t errs = diags().error_count();
    Ty t = check_expr(*e, Scope{m, {}, false});
    if (diags().error_count() != errs) continue;
    auto v = eval_const(*e, *m, "");
    if (!v) continue;
    if (auto want = convert_arg(p.type, t, *v)) {
      diags().report(e->where, Msg::type_mismatch,
                     fmt::format("argument '{}' of '{}'", p.name, call.callee), *want,
                     type_name(t));
      continue;
    }
    out[p.name] = *v;
  }
  if (diags().error_count() != before) return std::nullopt;
  return out;
}

}  // namespace kta::lang
