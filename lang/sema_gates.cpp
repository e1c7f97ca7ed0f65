// Tolerances (per output, presets), gates and timing settings.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {
namespace {

// Reports unknown and repeated keys of a settings body; returns the known ones by key.
std::map<std::string, const ast::Setting*> body_keys(Sema& sema,
                                                     const std::vector<ast::Setting>& body,
                                                     std::initializer_list<std::string_view> keys,
                                                     const std::string& where) {
  std::map<std::string, const ast::Setting*> out;
  std::vector<std::string> cands(keys.begin(), keys.end());
  for (const ast::Setting& s : body) {
    if (std::find(cands.begin(), cands.end(), s.key) == cands.end()) {
      std::string hint = closest_match(s.key, cands);
      if (hint.empty())
        sema.diags().report(s.key_where, Msg::unknown_setting, s.key, where);
      else
        sema.diags().report(s.key_where, Msg::unknown_setting_hint, s.key, where, hint);
      continue;
    }
    auto [it, fresh] = out.emplace(s.key, &s);
    if (!fresh) {
      sema.diags().report(s.key_where, Msg::duplicate_setting, s.key);
      sema.diags().note(it->second->where, Msg::note_previous_definition);
    }
  }
  return out;
}

const ast::PresetDecl* preset(Sema& sema, const ast::Setting& s, Module& m, const char* kind,
                              Module** where) {
  const ast::Expr* v = sema.single_value(s);
  if (!v) return nullptr;
  const auto* name = std::get_if<ast::NameRef>(&v->node);
  if (!name) {
    sema.diags().report(v->where, Msg::type_mismatch, fmt::format("'{}'", s.key),
                        fmt::format("a {} preset or a {{ ... }} block", kind), "an expression");
    return nullptr;
  }
  auto r = sema.resolve(m, name->name, v->where);
  if (!r) return nullptr;
  const auto* p = std::get_if<ast::PresetDecl>(r->decl);
  if (!p || p->kind != kind) {
    sema.diags().report(v->where, Msg::wrong_decl_kind, name->name, decl_kind(*r->decl),
                        fmt::format("{} preset", kind));
    return nullptr;
  }
  *where = r->module;
  return p;
}

// Every plain name of an expression, with where it is written.
void names_of(const ast::Expr& e, std::vector<std::pair<std::string, SourceRange>>& out) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::NameRef>) {
          out.emplace_back(n.name, e.where);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          names_of(*n.operand, out);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          names_of(*n.lhs, out);
          names_of(*n.rhs, out);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          for (const ast::Arg& a : n.args) names_of(*a.value, out);
        } else if constexpr (std::is_same_v<T, ast::List> || std::is_same_v<T, ast::Tuple>) {
          for (const auto& i : n.items) names_of(*i, out);
        } else if constexpr (std::is_same_v<T, ast::Paren>) {
          names_of(*n.inner, out);
        } else if constexpr (std::is_same_v<T, ast::Span>) {
          names_of(*n.lo, out);
          names_of(*n.hi, out);
        }
      },
      e.node);
}

// Reports each name of a tolerance field that is neither a param of `task` (when given) nor a
// constant, saying what a tolerance may use. Returns whether the field uses a param.
bool check_tolerance_names(Sema& sema, const ast::Expr& e, Module& m, const TaskContext* task,
                           bool* ok) {
  std::vector<std::pair<std::string, SourceRange>> names;
  names_of(e, names);
  bool uses_param = false;
  std::string params;
  if (task)
    for (const auto& [name, p] : task->params) params += (params.empty() ? "" : ", ") + name;
  if (params.empty()) params = "none declared";
  for (const auto& [name, where] : names) {
    if (task && task->params.count(name)) {
      uses_param = true;
      continue;
    }
    if (auto r = sema.resolve(m, name, where, false);
        r && std::holds_alternative<ast::ConstDecl>(*r->decl))
      continue;
    *ok = false;
    if (!task)
      sema.diags().report(where, Msg::tolerance_name_in_preset, name);
    else if (task->tensors.count(name))
      sema.diags().report(where, Msg::tolerance_name_tensor, name, params);
    else
      sema.diags().report(where, Msg::tolerance_name_unknown, name, params);
  }
  return uses_param;
}

}  // namespace

std::optional<model::Tolerance> Sema::tolerance_body(const std::vector<ast::Setting>& body,
                                                     Module& m, const TaskContext* task) {
  size_t before = diags().error_count();
  auto keys = body_keys(*this, body, {"atol", "rtol", "max_mismatch", "nan_equal"}, "a tolerance");
  model::Tolerance t;
  auto nonneg = [&](const char* key, double& out, model::ExprRef& expr, double max) {
    auto it = keys.find(key);
    if (it == keys.end()) return;
    const ast::Expr* e = single_value(*it->second);
    if (!e) return;
    bool names_ok = true;
    bool per_point = check_tolerance_names(*this, *e, m, task, &names_ok);
    if (!names_ok) return;
    if (per_point) {
      // Checked for type here and for range at every visible point (check_grids).
      Ty ty = check_expr(*e, task->scope);
      if (ty != Ty::integer && ty != Ty::number && ty != Ty::any)
        diags().report(e->where, Msg::type_mismatch, fmt::format("'{}'", key), "a number",
                       type_name(ty));
      else
        expr = lower_expr(it->second->values[0], m);
      return;
    }
    if (auto v = number_value(*it->second, m)) {
      if (*v < 0 || *v > max)
        diags().report(it->second->values[0]->where, Msg::value_out_of_range,
                       fmt::format("'{}'", key), max > 1 ? "at least 0" : "between 0 and 1", *v);
      else
        out = *v;
    }
  };
  nonneg("atol", t.atol, t.atol_expr, 1e300);
  nonneg("rtol", t.rtol, t.rtol_expr, 1e300);
  nonneg("max_mismatch", t.max_mismatch, t.max_mismatch_expr, 1);
  if (auto it = keys.find("nan_equal"); it != keys.end())
    if (auto v = bool_value(*it->second, m)) t.nan_equal = *v;
  if (diags().error_count() != before) return std::nullopt;
  return t;
}

std::optional<model::Tolerance> Sema::tolerance_of(const ast::Setting& s, Module& m,
                                                   const TaskContext* task) {
  if (s.has_block) return tolerance_body(s.block, m, task);
  Module* pm = nullptr;
  const ast::PresetDecl* p = preset(*this, s, m, "tolerance", &pm);
  if (!p) return std::nullopt;
  auto t = tolerance_preset(*p, *pm);
  if (t) t->preset = std::get<ast::NameRef>(s.values[0]->node).name;
  return t;
}

std::optional<model::Tolerance> Sema::tolerance_preset(const ast::PresetDecl& p, Module& m) {
  if (auto it = tolerance_presets_.find(&p); it != tolerance_presets_.end()) return it->second;
  return tolerance_presets_[&p] = tolerance_body(p.body, m);
}

std::optional<model::Timing> Sema::timing_body(const std::vector<ast::Setting>& body, Module& m) {
  size_t before = diags().error_count();
  auto keys =
      body_keys(*this, body,
                {"mode", "min_samples", "max_samples", "max_noise", "budget", "warmup"}, "timing");
  model::Timing t;
  if (auto it = keys.find("mode"); it != keys.end())
    if (auto w = word(*it->second, {"cold", "batch"}))
      t.mode = *w == "cold" ? model::Timing::Mode::cold : model::Timing::Mode::batch;
  if (auto it = keys.find("min_samples"); it != keys.end())
    if (auto v = int_value(*it->second, m, 1)) t.min_samples = int(std::min<int64_t>(*v, 1 << 30));
  if (auto it = keys.find("max_samples"); it != keys.end())
    if (auto v = int_value(*it->second, m, 1)) t.max_samples = int(std::min<int64_t>(*v, 1 << 30));
  if (auto it = keys.find("warmup"); it != keys.end())
    if (auto v = int_value(*it->second, m, 0)) t.warmup = int(std::min<int64_t>(*v, 1 << 30));
  if (auto it = keys.find("max_noise"); it != keys.end()) {
    if (auto v = number_value(*it->second, m)) {
      if (*v <= 0 || *v >= 1)
        diags().report(it->second->values[0]->where, Msg::value_out_of_range, "'max_noise'",
                       "between 0 and 100%", *v);
      else
        t.max_noise = *v;
    }
  }
  if (auto it = keys.find("budget"); it != keys.end()) {
    if (auto v = duration_value(*it->second, m)) {
      if (*v <= 0)
        diags().report(it->second->values[0]->where, Msg::value_out_of_range, "'budget'",
                       "positive", *v);
      else
        t.budget_ns = *v;
    }
  }
  if (t.min_samples > t.max_samples && keys.count("min_samples"))
    diags().report(keys["min_samples"]->where, Msg::value_out_of_range, "'min_samples'",
                   fmt::format("at most max_samples ({})", t.max_samples), t.min_samples);
  if (diags().error_count() != before) return std::nullopt;
  return t;
}

std::optional<model::Timing> Sema::timing_of(const ast::Setting& s, Module& m) {
  if (s.has_block) return timing_body(s.block, m);
  Module* pm = nullptr;
  const ast::PresetDecl* p = preset(*this, s, m, "timing", &pm);
  if (!p) return std::nullopt;
  return timing_body(p->body, *pm);
}

namespace {

// `tolerance OUTPUT ...` settings: each names one output, once. Returns them by output.
std::map<std::string, const ast::Setting*> check_tolerances(TaskContext& ctx) {
  DiagnosticEngine& d = ctx.diags();
  std::map<std::string, const ast::Setting*> seen;
  auto it = ctx.settings.find("tolerance");
  if (it == ctx.settings.end()) return seen;
  for (const ast::Setting* s : it->second) {
    if (s->subject.empty()) {
      d.report(s->key_where, Msg::type_mismatch, "'tolerance'",
               "'tolerance OUTPUT = preset' or 'tolerance OUTPUT { ... }'", "no output name");
      continue;
    }
    auto t = ctx.tensors.find(s->subject);
    if (t == ctx.tensors.end()) {
      std::vector<std::string> cands;
      for (const auto& [k, v] : ctx.tensors) cands.push_back(k);
      std::string hint = closest_match(s->subject, cands);
      if (hint.empty())
        d.report(s->subject_where, Msg::unknown_tensor, s->subject);
      else
        d.report(s->subject_where, Msg::unknown_tensor_hint, s->subject, hint);
      continue;
    }
    if (t->second->role == "input") {
      d.report(s->subject_where, Msg::tolerance_on_input, s->subject);
      continue;
    }
    if (auto [prev, fresh] = seen.emplace(s->subject, s); !fresh) {
      d.report(s->subject_where, Msg::duplicate_setting, "tolerance " + s->subject);
      d.note(prev->second->where, Msg::note_previous_definition);
      continue;
    }
    if (auto tol = ctx.sema.tolerance_of(*s, ctx.module, &ctx))
      ctx.task.tolerances[s->subject] = *tol;
  }
  return seen;
}

void report_outputs_without_tolerance(TaskContext& ctx,
                                      const std::map<std::string, const ast::Setting*>& seen) {
  for (const ast::TaskItem& item : ctx.decl.items) {
    const auto* t = std::get_if<ast::TensorDecl>(&item);
    if (t && t->role != "input" && !seen.count(t->name) && ctx.tensors.count(t->name) &&
        ctx.tensors.at(t->name) == t)
      ctx.diags().report(t->name_where, Msg::output_without_tolerance, t->role, t->name);
  }
}

// The settings inside `gate NAME { ... }` of a known gate.
void gate_body(TaskContext& ctx, const ast::Setting& s) {
  Sema& sema = ctx.sema;
  std::string where = fmt::format("gate '{}'", s.subject);
  if (s.subject == "compile") {
    body_keys(sema, s.block, {}, where);
  } else if (s.subject == "correctness") {
    auto keys = body_keys(sema, s.block, {"seeds"}, where);
    if (keys.count("seeds"))
      if (auto v = sema.int_value(*keys["seeds"], ctx.module, 1))
        ctx.task.gates.correctness_seeds = int(std::min<int64_t>(*v, 1000));
  } else if (s.subject == "performance") {
    auto keys = body_keys(sema, s.block, {"min_speedup"}, where);
    if (keys.count("min_speedup")) {
      if (auto v = sema.number_value(*keys["min_speedup"], ctx.module)) {
        if (*v <= 0)
          ctx.diags().report(keys["min_speedup"]->values[0]->where, Msg::value_out_of_range,
                             "'min_speedup'", "positive", *v);
        else
          ctx.task.gates.min_speedup = *v;
      }
    }
  } else if (s.subject == "heldout") {
    auto keys = body_keys(sema, s.block, {"require"}, where);
    if (keys.count("require"))
      if (auto w = sema.word(*keys["require"], {"correct", "none"}))
        ctx.task.gates.heldout_require_correct = *w == "correct";
  } else {
    auto keys = body_keys(sema, s.block, {"fail_on"}, where);
    if (keys.count("fail_on"))
      if (auto w = sema.word(*keys["fail_on"], {"error", "warning"}))
        ctx.task.gates.audit_fail_on = *w;
  }
}

// `gate NAME { ... }` settings: known names, each once, each with a block.
void check_gates(TaskContext& ctx) {
  DiagnosticEngine& d = ctx.diags();
  auto it = ctx.settings.find("gate");
  if (it == ctx.settings.end()) return;
  static const std::vector<std::string> kGates = {"compile", "correctness", "performance", "audit",
                                                  "heldout"};
  std::set<std::string> gates;
  for (const ast::Setting* s : it->second) {
    if (std::find(kGates.begin(), kGates.end(), s->subject) == kGates.end()) {
      std::string hint = closest_match(s->subject, kGates);
      if (hint.empty() || s->subject.empty())
        d.report(s->subject.empty() ? s->key_where : s->subject_where, Msg::unknown_gate,
                 s->subject);
      else
        d.report(s->subject_where, Msg::unknown_setting_hint, s->subject, "gates", hint);
      continue;
    }
    if (!gates.insert(s->subject).second) {
      d.report(s->subject_where, Msg::duplicate_setting, "gate " + s->subject);
      continue;
    }
    if (!s->has_block) {
      d.report(s->subject_where, Msg::type_mismatch, fmt::format("gate '{}'", s->subject),
               "a { ... } block", "a value");
      continue;
    }
    gate_body(ctx, *s);
  }
}

}  // namespace

void check_tolerances_and_gates(TaskContext& ctx) {
  report_outputs_without_tolerance(ctx, check_tolerances(ctx));
  check_gates(ctx);
  if (auto it = ctx.settings.find("timing"); it != ctx.settings.end())
    if (auto t = ctx.sema.timing_of(*it->second.front(), ctx.module)) ctx.task.timing = *t;
}

}  // namespace kta::lang
