// Input distributions: a tensor's initializer lowered to model::Distribution (list arguments,
// categorical weights and mixture components, included) and its arguments checked against the
// distribution and the tensor's dtype where they are written, so that a bad one is reported at its
// file:line:col and not when the engine draws the inputs (which checks again, for models built in
// code).
#include <fmt/format.h>

#include <cmath>

#include "lang/sema.h"

namespace kta::lang {
namespace {

// Where each argument and each item of a list argument was written (the call for a default).
struct Sites {
  SourceRange call;
  std::map<std::string, SourceRange> args;
  std::map<std::string, std::vector<SourceRange>> items;

  SourceRange arg(const std::string& name) const {
    auto it = args.find(name);
    return it == args.end() ? call : it->second;
  }
  SourceRange item(const std::string& name, size_t k) const {
    auto it = items.find(name);
    return it == items.end() || k >= it->second.size() ? arg(name) : it->second[k];
  }
};

// The integer range of a tensor's dtype; nullopt for floating dtypes.
std::optional<std::pair<double, double>> integer_range(model::DType t) {
  using model::DType;
  switch (t) {
    case DType::i8:
      return std::pair{-128.0, 127.0};
    case DType::u8:
      return std::pair{0.0, 255.0};
    case DType::boolean:
      return std::pair{0.0, 1.0};
    case DType::i32:
      return std::pair{-2147483648.0, 2147483647.0};
    case DType::u32:
      return std::pair{0.0, 4294967295.0};
    case DType::i64:
      return std::pair{-0x1p63, 0x1p63};
    case DType::u64:
      return std::pair{0.0, 0x1p64};
    default:
      return std::nullopt;
  }
}

class Lowering {
 public:
  Lowering(TaskContext& ctx, const ast::TensorDecl& tensor, model::DType dtype)
      : ctx_(ctx), tensor_(tensor), dtype_(dtype) {}

  // `what` names the expression in messages: "an input's initializer", "item 2 of ...".
  std::optional<model::Distribution> lower(const ast::Expr& init, Module& from, Sites& sites,
                                           const std::string& what = "an input's initializer") {
    const auto* call = std::get_if<ast::Call>(&init.node);
    ast::Call bare;
    if (!call) {
      const auto* name = std::get_if<ast::NameRef>(&init.node);
      if (!name) {
        size_t before = ctx_.diags().error_count();
        Ty t = ctx_.sema.check_expr(init, Scope{&from, {}, false});
        if (ctx_.diags().error_count() == before)
          ctx_.diags().report(init.where, Msg::type_mismatch, what,
                              "a distribution such as std.inputs.normal()", type_name(t));
        return std::nullopt;
      }
      bare.callee = name->name;
      bare.callee_where = init.where;
      call = &bare;
    }
    auto decl = ctx_.sema.callable(*call, from, "distribution");
    if (!decl) return std::nullopt;
    auto values = ctx_.sema.bind_call(*call, from, *decl->first, *decl->second);
    if (!values) return std::nullopt;
    // bind_call has reported any unknown, repeated or missing argument: no new errors here.
    auto exprs = ctx_.sema.call_exprs(*call, from, *decl->first, *decl->second);
    model::Distribution out{decl->first->name, {}, init.where};
    sites.call = call->callee_where;
    bool ok = true;
    for (const ast::ParamSig& p : decl->first->params) {
      const Sema::BoundExpr& e = exprs.at(p.name);
      if (e.module == &from) sites.args[p.name] = e.expr->where;
      model::DistributionArg a{p.name, {}, p.type[0] == '[', {}};
      if (p.type == "[f64]")
        ok &= numbers(*e.expr, *e.module, call->callee, p.name, a, sites);
      else if (p.type == "[distribution]")
        ok &= components(*e.expr, *e.module, call->callee, p.name, a, sites);
      else
        a.numbers.push_back(number(values->at(p.name)));
      out.args.push_back(std::move(a));
    }
    if (!ok) return std::nullopt;
    if (!check(out, call->callee, sites)) return std::nullopt;
    return out;
  }

 private:
  TaskContext& ctx_;
  const ast::TensorDecl& tensor_;
  model::DType dtype_;

  static double number(const model::Value& v) {
    if (std::holds_alternative<int64_t>(v)) return static_cast<double>(std::get<int64_t>(v));
    if (std::holds_alternative<double>(v)) return std::get<double>(v);
    if (std::holds_alternative<bool>(v)) return std::get<bool>(v) ? 1.0 : 0.0;
    return 0;
  }

  const ast::List* list_of(const ast::Expr& e, const std::string& callee, const std::string& name,
                           const char* want, Module& m) {
    const ast::Expr* inner = &e;
    while (const auto* p = std::get_if<ast::Paren>(&inner->node)) inner = p->inner.get();
    if (const auto* l = std::get_if<ast::List>(&inner->node)) return l;
    size_t before = ctx_.diags().error_count();
    Ty t = ctx_.sema.check_expr(e, Scope{&m, {}, false});
    if (ctx_.diags().error_count() == before)
      ctx_.diags().report(e.where, Msg::type_mismatch,
                          fmt::format("argument '{}' of '{}'", name, callee), want, type_name(t));
    return nullptr;
  }

  bool numbers(const ast::Expr& e, Module& m, const std::string& callee, const std::string& name,
               model::DistributionArg& out, Sites& sites) {
    const ast::List* list = list_of(e, callee, name, "a list of numbers", m);
    if (!list) return false;
    bool ok = true;
    for (size_t k = 0; k < list->items.size(); ++k) {
      const ast::Expr& item = *list->items[k];
      sites.items[name].push_back(item.where);
      size_t before = ctx_.diags().error_count();
      Ty t = ctx_.sema.check_expr(item, Scope{&m, {}, false});
      if (ctx_.diags().error_count() != before) {
        ok = false;
        continue;
      }
      if (t != Ty::integer && t != Ty::number && t != Ty::any) {
        ctx_.diags().report(item.where, Msg::type_mismatch,
                            fmt::format("item {} of argument '{}' of '{}'", k + 1, name, callee),
                            "a number", type_name(t));
        ok = false;
        continue;
      }
      auto v = ctx_.sema.eval_const(item, m, "");
      if (!v) {
        ok = false;
        continue;
      }
      out.numbers.push_back(number(*v));
    }
    return ok;
  }

  bool components(const ast::Expr& e, Module& m, const std::string& callee, const std::string& name,
                  model::DistributionArg& out, Sites& sites) {
    const ast::List* list = list_of(e, callee, name, "a list of distributions", m);
    if (!list) return false;
    bool ok = true;
    for (size_t k = 0; k < list->items.size(); ++k) {
      const ast::ExprPtr& item = list->items[k];
      sites.items[name].push_back(item->where);
      Sites inner;
      auto d = lower(*item, m, inner,
                     fmt::format("item {} of argument '{}' of '{}'", k + 1, name, callee));
      ok &= d.has_value();
      if (d) out.components.push_back(std::move(*d));
    }
    return ok;
  }

  // ---- checks: one message per offending argument ----

  bool bad(SourceRange where, const std::string& name, const std::string& callee,
           const std::string& what) {
    ctx_.diags().report(where, Msg::bad_distribution_argument, name, callee, what);
    return false;
  }

  std::string fits_text(double v) const {
    return fmt::format("is {}, which does not fit the {} tensor '{}'", v, tensor_.dtype,
                       tensor_.name);
  }

  // Values in [lo, hi] must be representable in an integer tensor.
  bool fits(double lo, double hi) const {
    auto range = integer_range(dtype_);
    return !range ||
           (std::isfinite(lo) && std::isfinite(hi) && lo >= range->first && hi <= range->second);
  }

  bool weights_ok(const model::DistributionArg& w, const std::string& callee, const Sites& s) {
    bool ok = true;
    double sum = 0;
    for (size_t k = 0; k < w.numbers.size(); ++k) {
      double x = w.numbers[k];
      if (!(x >= 0) || !std::isfinite(x))
        ok = bad(s.item(w.name, k), w.name, callee,
                 fmt::format("must hold finite weights >= 0, found {} (item {})", x, k + 1));
      else
        sum += x;
    }
    if (ok && sum <= 0)
      ok = bad(s.arg(w.name), w.name, callee,
               w.numbers.empty() ? "must not be empty" : "must have a weight > 0");
    return ok;
  }

  bool check(const model::Distribution& d, const std::string& callee, const Sites& s) {
    bool ok = true;
    // The checks below know the stdlib's parameter names; a distribution declared with other
    // names is left to the engine.
    auto has = [&](std::initializer_list<std::string_view> keys) {
      for (auto k : keys)
        if (!d.arg(k) ||
            d.arg(k)->is_list != (k == "weights" || k == "values" || k == "components"))
          return false;
      return true;
    };
    auto num = [&](std::string_view key) { return d.arg(key)->numbers.at(0); };
    // Numbers are finite; only a constant fills a floating tensor with inf or nan.
    for (const model::DistributionArg& a : d.args) {
      if (a.is_list) continue;
      double v = a.numbers[0];
      if (std::isfinite(v)) continue;
      if (d.name == "constant" && !integer_range(dtype_)) continue;
      ok = bad(s.arg(a.name), a.name, callee,
               d.name == "constant" ? fits_text(v) : fmt::format("must be finite, found {}", v));
    }
    if (!ok) return false;
    const std::string& n = d.name;
    bool is_unsigned =
        dtype_ == model::DType::u8 || dtype_ == model::DType::u32 || dtype_ == model::DType::u64;
    if (n == "normal" && is_unsigned) {
      ctx_.diags().report(s.call, Msg::distribution_dtype, callee, tensor_.dtype, tensor_.name,
                          "it draws negative values (use integers, categorical or power_law)");
      return false;
    }
    if (n == "uniform" && is_unsigned && has({"lo"}) && num("lo") < 0)
      return bad(s.arg("lo"), "lo", callee, fits_text(num("lo")));
    if (n == "normal" && has({"std"}) && !(num("std") >= 0))
      return bad(s.arg("std"), "std", callee, fmt::format("must be >= 0, found {}", num("std")));
    if ((n == "uniform" || n == "integers" || n == "power_law") && has({"lo", "hi"})) {
      double lo = num("lo"), hi = num("hi");
      if (!(lo < hi))
        return bad(s.arg("hi"), "hi", callee, fmt::format("must be > lo ({}), found {}", lo, hi));
      if (n != "uniform" && !fits(lo, hi - 1))
        return bad(s.arg(fits(lo, lo) ? "hi" : "lo"), fits(lo, lo) ? "hi" : "lo", callee,
                   fmt::format("gives values in [{}, {}], which do not fit the {} tensor '{}'", lo,
                               hi - 1, tensor_.dtype, tensor_.name));
    }
    if (n == "power_law" && has({"alpha"}) && !(num("alpha") > 0))
      return bad(s.arg("alpha"), "alpha", callee,
                 fmt::format("must be > 0, found {}", num("alpha")));
    if (n == "bernoulli" && has({"p"}) && !(num("p") >= 0 && num("p") <= 1))
      return bad(s.arg("p"), "p", callee, fmt::format("must be in [0, 1], found {}", num("p")));
    if (n == "constant" && has({"value"}) && !fits(num("value"), num("value")))
      return bad(s.arg("value"), "value", callee, fits_text(num("value")));
    if (n == "categorical" && has({"weights", "values"})) return check_categorical(d, callee, s);
    if (n == "mixture" && has({"components", "weights"})) return check_mixture(d, callee, s);
    return true;
  }

  bool check_categorical(const model::Distribution& d, const std::string& callee, const Sites& s) {
    const model::DistributionArg& w = *d.arg("weights");
    const model::DistributionArg& v = *d.arg("values");
    bool ok = weights_ok(w, callee, s);
    if (!v.numbers.empty() && v.numbers.size() != w.numbers.size())
      return bad(s.arg("values"), "values", callee,
                 fmt::format("must have one value per weight ({}), found {}", w.numbers.size(),
                             v.numbers.size()));
    for (size_t k = 0; k < v.numbers.size(); ++k) {
      double x = v.numbers[k];
      if (!std::isfinite(x))
        ok = bad(s.item("values", k), "values", callee,
                 fmt::format("must be finite, found {} (item {})", x, k + 1));
      else if (!fits(x, x))
        ok = bad(s.item("values", k), "values", callee,
                 fmt::format("has {} (item {}), which does not fit the {} tensor '{}'", x, k + 1,
                             tensor_.dtype, tensor_.name));
      else if (integer_range(dtype_) && std::floor(x) != x)
        ok = bad(s.item("values", k), "values", callee,
                 fmt::format("must be integers for the {} tensor '{}', found {}", tensor_.dtype,
                             tensor_.name, x));
    }
    if (v.numbers.empty() && !w.numbers.empty() &&
        !fits(0, static_cast<double>(w.numbers.size() - 1)))
      ok = bad(s.arg("weights"), "weights", callee,
               fmt::format("gives values in [0, {}], which do not fit the {} tensor '{}'",
                           w.numbers.size() - 1, tensor_.dtype, tensor_.name));
    return ok;
  }

  bool check_mixture(const model::Distribution& d, const std::string& callee, const Sites& s) {
    const model::DistributionArg& c = *d.arg("components");
    const model::DistributionArg& w = *d.arg("weights");
    if (c.components.empty())
      return bad(s.arg("components"), "components", callee, "must not be empty");
    if (!w.numbers.empty() && w.numbers.size() != c.components.size())
      return bad(s.arg("weights"), "weights", callee,
                 fmt::format("must have one weight per component ({}), found {}",
                             c.components.size(), w.numbers.size()));
    return w.numbers.empty() || weights_ok(w, callee, s);
  }
};

}  // namespace

std::optional<model::Distribution> distribution_of(TaskContext& ctx, const ast::TensorDecl& tensor,
                                                   model::DType dtype) {
  Sites sites;
  return Lowering(ctx, tensor, dtype).lower(*tensor.init, ctx.module, sites);
}

}  // namespace kta::lang
