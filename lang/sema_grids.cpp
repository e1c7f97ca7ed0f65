// Shape grids: axes bind shape params, values come from lists, range() and pow2(); derived axes
// and `where` filters; expansion with a cap; held-out points that repeat visible ones; every
// shape-dependent expression evaluated at every visible point.
#include <fmt/format.h>

#include "lang/grid.h"
#include "lang/sema.h"

namespace kta::lang {
namespace {

std::string expr_text(TaskContext& ctx, SourceRange r) {
  const std::string& t = ctx.diags().sources().file(r.file).text;
  return t.substr(r.begin, r.end - r.begin);
}

// A constant integer value of axis `axis`; nullopt after an error (reported).
std::optional<int64_t> constant_int(TaskContext& ctx, const std::string& axis,
                                    const ast::ExprPtr& e) {
  DiagnosticEngine& d = ctx.diags();
  size_t before = d.error_count();
  Ty t = ctx.sema.check_expr(*e, Scope{&ctx.module, {}, false});
  if (d.error_count() != before) return std::nullopt;
  if (t != Ty::integer && t != Ty::any) {
    d.report(e->where, Msg::type_mismatch, fmt::format("a value of axis '{}'", axis), "an integer",
             type_name(t));
    return std::nullopt;
  }
  auto v = ctx.sema.eval_const(*e, ctx.module, "");
  if (!v || !std::holds_alternative<int64_t>(*v)) return std::nullopt;
  return std::get<int64_t>(*v);
}

// `range(a, b[, step])`.
std::optional<std::vector<int64_t>> range_axis(TaskContext& ctx, const ast::GridItem& item,
                                               const ast::Call& call) {
  DiagnosticEngine& d = ctx.diags();
  const ast::Expr& e = *item.expr;
  if (call.args.size() < 2 || call.args.size() > 3) {
    d.report(e.where, Msg::argument_count, "range", "2 or 3", call.args.size());
    return std::nullopt;
  }
  auto a = constant_int(ctx, item.name, call.args[0].value);
  auto b = constant_int(ctx, item.name, call.args[1].value);
  auto s = call.args.size() == 3 ? constant_int(ctx, item.name, call.args[2].value)
                                 : std::optional<int64_t>(1);
  if (!a || !b || !s) return std::nullopt;
  try {
    auto out = range_values(*a, *b, *s, ctx.sema.options.max_grid_points);
    if (out.empty()) d.report(e.where, Msg::bad_range, fmt::format("{}, {}, {}", *a, *b, *s));
    return out;
  } catch (const EvalError&) {
    d.report(e.where, Msg::axis_too_large, item.name, ctx.sema.options.max_grid_points);
    return std::nullopt;
  }
}

// `pow2(lo..hi)`.
std::optional<std::vector<int64_t>> pow2_axis(TaskContext& ctx, const ast::GridItem& item,
                                              const ast::Call& call) {
  DiagnosticEngine& d = ctx.diags();
  const ast::Expr& e = *item.expr;
  const ast::Span* span =
      call.args.size() == 1 ? std::get_if<ast::Span>(&call.args[0].value->node) : nullptr;
  if (!span) {
    d.report(e.where, Msg::type_mismatch, "the argument of pow2", "lo..hi", "something else");
    return std::nullopt;
  }
  auto lo = constant_int(ctx, item.name, span->lo), hi = constant_int(ctx, item.name, span->hi);
  if (!lo || !hi) return std::nullopt;
  auto out = pow2_values(*lo, *hi);
  if (out.empty()) d.report(e.where, Msg::bad_pow2, *lo, *hi);
  return out;
}

// Values of a value axis: `[a, b]`, `range(a, b, s)` or `pow2(lo..hi)`, all constant.
std::optional<std::vector<int64_t>> axis_values(TaskContext& ctx, const ast::GridItem& item) {
  const ast::Expr& e = *item.expr;
  if (const auto* list = std::get_if<ast::List>(&e.node)) {
    std::vector<int64_t> out;
    bool ok = true;
    for (const auto& v : list->items) {
      auto x = constant_int(ctx, item.name, v);
      ok &= x.has_value();
      if (x) out.push_back(*x);
    }
    if (!ok) return std::nullopt;
    return out;
  }
  const auto* call = std::get_if<ast::Call>(&e.node);
  if (call && call->callee == "range") return range_axis(ctx, item, *call);
  if (call && call->callee == "pow2") return pow2_axis(ctx, item, *call);
  ctx.diags().report(e.where, Msg::expected_axis_values,
                     fmt::format("'{}'", expr_text(ctx, e.where)));
  return std::nullopt;
}

// Checks one name an axis binds: a shape param (a value axis must be one), bound once. Returns
// whether it is a param; nullopt after an error (reported).
std::optional<bool> bind_axis_name(TaskContext& ctx, const std::string& name, SourceRange where,
                                   bool value_axis, std::map<std::string, SourceRange>& bound) {
  DiagnosticEngine& d = ctx.diags();
  auto p = ctx.params.find(name);
  bool is_param = p != ctx.params.end();
  if (is_param && p->second->value) {
    d.report(where, Msg::fixed_param_in_grid, name);
    return std::nullopt;
  }
  if (!is_param && value_axis) {
    std::vector<std::string> cands;
    for (const auto& [k, v] : ctx.params) cands.push_back(k);
    std::string hint = closest_match(name, cands);
    if (hint.empty())
      d.report(where, Msg::axis_not_param, name, ctx.decl.name);
    else
      d.report(where, Msg::unknown_param_hint, name, hint);
    return std::nullopt;
  }
  if (auto [it, fresh] = bound.emplace(name, where); !fresh) {
    d.report(where, Msg::duplicate_axis, name);
    d.note(it->second, Msg::note_previous_definition);
    return std::nullopt;
  }
  return is_param;
}

// `(D, H, W) in [(3, 5, 7), (17, 33, 65)]`: members are shape params, values a list of tuples
// of as many constant integers. nullopt after an error (reported).
std::optional<GridAxis> tuple_axis(TaskContext& ctx, const ast::GridItem& item,
                                   std::map<std::string, SourceRange>& bound) {
  DiagnosticEngine& d = ctx.diags();
  std::string label = "(";
  for (size_t i = 0; i < item.members.size(); ++i) label += (i ? ", " : "") + item.members[i];
  label += ")";
  // A malformed tuple axis still binds its names: the grid is not also "missing" them.
  auto bind_quietly = [&] {
    for (size_t i = 0; i < item.members.size(); ++i)
      bound.emplace(item.members[i], item.members_where[i]);
  };
  if (item.members.size() == 1) {
    d.report(item.name_where, Msg::tuple_axis_one_name, item.members[0], item.members[0]);
    bind_quietly();
    return std::nullopt;
  }
  if (item.kind == ast::GridItem::Kind::derived) {
    d.report(item.name_where, Msg::tuple_axis_derived, label, label);
    bind_quietly();
    return std::nullopt;
  }
  bool ok = true;
  for (size_t i = 0; i < item.members.size(); ++i)
    ok &= bind_axis_name(ctx, item.members[i], item.members_where[i], true, bound).has_value();
  const auto* list = std::get_if<ast::List>(&item.expr->node);
  if (!list) {
    d.report(item.expr->where, Msg::tuple_axis_values, label,
             fmt::format("'{}'", expr_text(ctx, item.expr->where)));
    return std::nullopt;
  }
  GridAxis axis;
  axis.members = item.members;
  for (const auto& v : list->items) {
    const auto* tuple = std::get_if<ast::Tuple>(&v->node);
    if (!tuple) {
      d.report(v->where, Msg::tuple_axis_values, label,
               fmt::format("'{}'", expr_text(ctx, v->where)));
      ok = false;
      continue;
    }
    if (tuple->items.size() != item.members.size()) {
      d.report(v->where, Msg::tuple_axis_arity, expr_text(ctx, v->where), label,
               tuple->items.size(), item.members.size());
      ok = false;
      continue;
    }
    std::vector<int64_t> values;
    for (size_t i = 0; i < tuple->items.size(); ++i) {
      auto x = constant_int(ctx, item.members[i], tuple->items[i]);
      ok &= x.has_value();
      if (x) values.push_back(*x);
    }
    if (values.size() == item.members.size()) axis.tuples.push_back(std::move(values));
  }
  if (!ok) return std::nullopt;
  return axis;
}

// Builds the grid of a `shapes` block; nullopt after an error.
std::optional<GridSpec> grid_spec(TaskContext& ctx, const ast::ShapesDecl& shapes) {
  DiagnosticEngine& d = ctx.diags();
  size_t before = d.error_count();
  GridSpec spec;
  Scope scope = ctx.scope;
  std::map<std::string, SourceRange> bound;
  for (const ast::GridItem& item : shapes.items) {
    if (item.kind == ast::GridItem::Kind::where) {
      Ty t = ctx.sema.check_expr(*item.expr, scope);
      if (t != Ty::boolean && t != Ty::any)
        d.report(item.expr->where, Msg::type_mismatch, "a 'where' filter", "a bool", type_name(t));
      spec.filters.push_back(ctx.sema.lower_expr(item.expr, ctx.module));
      continue;
    }
    if (item.is_tuple()) {
      if (auto axis = tuple_axis(ctx, item, bound)) {
        for (const std::string& m : axis->members) scope.names[m] = Ty::integer;
        spec.axes.push_back(std::move(*axis));
      }
      continue;
    }
    auto is_param = bind_axis_name(ctx, item.name, item.name_where,
                                   item.kind == ast::GridItem::Kind::axis, bound);
    if (!is_param) continue;
    GridAxis axis{item.name, *is_param, {}, nullptr, {}, {}};
    if (item.kind == ast::GridItem::Kind::derived) {
      Ty t = ctx.sema.check_expr(*item.expr, scope);
      if (t != Ty::integer && t != Ty::any)
        d.report(item.expr->where, Msg::type_mismatch, fmt::format("derived axis '{}'", item.name),
                 "an integer", type_name(t));
      axis.derived = ctx.sema.lower_expr(item.expr, ctx.module);
    } else if (auto values = axis_values(ctx, item)) {
      axis.values = std::move(*values);
    }
    scope.names[item.name] = Ty::integer;
    spec.axes.push_back(std::move(axis));
  }
  for (const auto& [name, p] : ctx.params)
    if (!p->value && !bound.count(name))
      d.report(shapes.which_where, Msg::unbound_param, shapes.which, name);
  if (d.error_count() != before) return std::nullopt;
  return spec;
}

NameLookup fixed_params(const model::Task& task) {
  return [&task](const std::string& name) -> std::optional<model::Value> {
    for (const model::Param& p : task.params)
      if (p.name == name && p.fixed) return *p.fixed;
    return std::nullopt;
  };
}

std::optional<std::vector<model::ShapePoint>> expand(TaskContext& ctx,
                                                     const ast::ShapesDecl& shapes,
                                                     const GridSpec& spec) {
  DiagnosticEngine& d = ctx.diags();
  try {
    auto points = expand_grid(spec, fixed_params(ctx.task), ctx.sema.options.max_grid_points);
    if (points.empty()) d.report(shapes.which_where, Msg::empty_grid, shapes.which);
    return points;
  } catch (const GridTooLarge&) {
    d.report(shapes.which_where, Msg::grid_too_large, shapes.which,
             ctx.sema.options.max_grid_points);
  } catch (const EvalError& e) {
    d.report(e.where.file ? e.where : shapes.where, Msg::eval_error,
             expr_text(ctx, e.where.file ? e.where : shapes.where), e.what());
  }
  return std::nullopt;
}

void lower_generator(TaskContext& ctx, const ast::ShapesDecl& shapes, const GridSpec* visible) {
  DiagnosticEngine& d = ctx.diags();
  const auto* call = std::get_if<ast::Call>(&shapes.generator->node);
  if (!call) {
    d.report(shapes.generator->where, Msg::type_mismatch, "a generated grid",
             "a generator call such as std.heldout.perturb(visible)", "an expression");
    return;
  }
  auto decl = ctx.sema.callable(*call, ctx.module, "generator");
  if (!decl) return;
  const ast::NameRef* first = call->args.empty() || !call->args[0].name.empty()
                                  ? nullptr
                                  : std::get_if<ast::NameRef>(&call->args[0].value->node);
  if (!first || first->name != "visible") {
    d.report(call->callee_where, Msg::generator_needs_visible, call->callee);
    return;
  }
  auto args = ctx.sema.bind_call(*call, ctx.module, *decl->first, *decl->second, 1);
  if (!args) return;
  model::HeldoutGenerator g;
  g.name = decl->first->name;
  if (auto it = args->find("count");
      it != args->end() && std::holds_alternative<int64_t>(it->second)) {
    int64_t count = std::get<int64_t>(it->second);
    if (count < 1 || count > int64_t(ctx.sema.options.max_grid_points)) {
      d.report(call->callee_where, Msg::value_out_of_range, "'count'",
               fmt::format("between 1 and {}", ctx.sema.options.max_grid_points), count);
      return;
    }
    g.count = static_cast<int>(count);
  }
  g.args = *args;
  if (visible) {
    for (const GridAxis& a : visible->axes) {
      if (a.derived && a.is_param) g.derived.emplace_back(a.name, a.derived);
      if (a.is_tuple()) g.tuples.push_back(a.members);
    }
    g.filters = visible->filters;
  }
  ctx.task.heldout_generator = std::move(g);
}

// Every shape-dependent expression must evaluate at every visible point: dims non-negative,
// launch geometry positive, no division by zero.
void check_at_points(TaskContext& ctx) {
  struct Item {
    model::ExprRef expr;
    std::string what;
    int64_t min;
    bool integer;
  };
  std::vector<Item> items;
  for (const model::Tensor& t : ctx.task.tensors)
    for (size_t i = 0; i < t.shape.size(); ++i)
      items.push_back({t.shape[i], fmt::format("dim {} of '{}'", i, t.name), 0, true});
  for (const model::Entry* e : {&ctx.task.reference, &ctx.task.baseline, &ctx.task.candidate}) {
    if (!e->launch) continue;
    for (int i = 0; i < 3; ++i) {
      if (e->launch->grid[i]) items.push_back({e->launch->grid[i], "'grid'", 1, true});
      if (e->launch->block[i]) items.push_back({e->launch->block[i], "'block'", 1, true});
    }
    if (e->launch->shared_bytes) items.push_back({e->launch->shared_bytes, "'shared'", 0, true});
  }
  if (ctx.task.bytes) items.push_back({ctx.task.bytes, "'bytes'", 0, false});
  if (ctx.task.flops) items.push_back({ctx.task.flops, "'flops'", 0, false});
  for (const Item& item : items) {
    for (const model::ShapePoint& p : ctx.task.visible) {
      try {
        double v = item.integer ? double(eval_int(item.expr, p, ctx.task))
                                : eval_number(item.expr, p, ctx.task);
        if (v < double(item.min)) {
          ctx.diags().report(item.expr->where, Msg::value_out_of_range,
                             fmt::format("{} at {}", item.what, point_text(p)),
                             fmt::format("at least {}", item.min), v);
          break;
        }
      } catch (const EvalError& e) {
        ctx.diags().report(item.expr->where, Msg::eval_failed, expr_text(ctx, item.expr->where),
                           point_text(p), e.what());
        break;
      }
    }
  }
}

// A tolerance over params must give a valid tolerance at every visible and explicit held-out
// point (generated ones are checked where they are drawn: the engine fails that point).
void check_tolerances_at_points(TaskContext& ctx) {
  for (const auto& [name, tol] : ctx.task.tolerances) {
    if (!tol.per_point()) continue;
    for (const auto* points : {&ctx.task.visible, &ctx.task.heldout}) {
      bool failed = false;
      for (const model::ShapePoint& p : *points) {
        try {
          tolerance_at(tol, p, ctx.task);
        } catch (const EvalError& e) {
          SourceRange at = e.where.file ? e.where : ctx.decl.where;
          ctx.diags().report(at, Msg::eval_failed, expr_text(ctx, at), point_text(p), e.what());
          failed = true;
          break;
        }
      }
      if (failed) break;
    }
  }
}

}  // namespace

void check_grids(TaskContext& ctx) {
  std::optional<GridSpec> visible_spec;
  if (ctx.visible) {
    if (ctx.visible->generator) {
      ctx.diags().report(ctx.visible->which_where, Msg::type_mismatch, "the visible grid",
                         "a block of axes", "a generator");
    } else if ((visible_spec = grid_spec(ctx, *ctx.visible))) {
      if (auto points = expand(ctx, *ctx.visible, *visible_spec))
        ctx.task.visible = std::move(*points);
    }
  }
  if (ctx.heldout) {
    if (ctx.heldout->generator) {
      lower_generator(ctx, *ctx.heldout, visible_spec ? &*visible_spec : nullptr);
    } else if (auto spec = grid_spec(ctx, *ctx.heldout)) {
      if (auto points = expand(ctx, *ctx.heldout, *spec)) {
        for (const model::ShapePoint& p : *points) {
          if (std::find(ctx.task.visible.begin(), ctx.task.visible.end(), p) ==
              ctx.task.visible.end())
            continue;
          ctx.diags().report(ctx.heldout->which_where, Msg::heldout_equals_visible, point_text(p));
          ctx.diags().note(ctx.visible->which_where, Msg::note_visible_grid);
        }
        ctx.task.heldout = std::move(*points);
      }
    }
  }
  check_at_points(ctx);
  check_tolerances_at_points(ctx);
}

}  // namespace kta::lang
