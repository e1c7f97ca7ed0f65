// Reference, baseline and candidate entries: flavour and mode per task kind, source files on disk,
// kernel argument lists against the declared tensors and params, launch geometry, editable files.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {
namespace {

namespace fs = std::filesystem;

model::Flavor flavor_of(const std::string& f) {
  if (f == "torch") return model::Flavor::torch;
  if (f == "triton") return model::Flavor::triton;
  return model::Flavor::hip;
}

model::EntryMode mode_of(const std::string& m) {
  if (m == "launcher") return model::EntryMode::launcher;
  if (m == "module") return model::EntryMode::module;
  if (m == "function") return model::EntryMode::function;
  return model::EntryMode::kernel;
}

bool mode_allowed(const std::string& flavor, const std::string& mode) {
  if (flavor == "hip") return mode == "kernel" || mode == "launcher";
  if (flavor == "torch") return mode == "module" || mode == "function";
  return mode == "function";
}

// Which flavours a kind allows for an entry, as text for messages.
std::vector<std::string> flavors_for(const std::string& kind, const std::string& which) {
  if (kind == "hip2hip") return {"hip"};
  if (kind == "triton2triton")
    return which == "reference" ? std::vector<std::string>{"triton", "torch"}
                                : std::vector<std::string>{"triton"};
  if (kind == "torch2hip") {
    if (which == "candidate") return {"hip"};
    return which == "reference" ? std::vector<std::string>{"torch"}
                                : std::vector<std::string>{"torch", "hip"};
  }
  return {"hip", "torch", "triton"};
}

// Launch geometry: an integer expression or a tuple of up to three.
void lower_geometry(TaskContext& ctx, const ast::ExprPtr& e, model::ExprRef out[3],
                    const char* what) {
  if (!e) return;
  std::vector<ast::ExprPtr> parts;
  if (const auto* t = std::get_if<ast::Tuple>(&e->node))
    parts = t->items;
  else
    parts.push_back(e);
  if (parts.size() > 3) {
    ctx.diags().report(e->where, Msg::type_mismatch, what, "an integer or a tuple of up to 3",
                       fmt::format("a tuple of {}", parts.size()));
    return;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    size_t before = ctx.diags().error_count();
    Ty t = ctx.sema.check_expr(*parts[i], ctx.scope);
    if (ctx.diags().error_count() != before) continue;
    if (t != Ty::integer && t != Ty::any) {
      ctx.diags().report(parts[i]->where, Msg::type_mismatch, what, "an integer", type_name(t));
      continue;
    }
    out[i] = ctx.sema.lower_expr(parts[i], ctx.module);
  }
}

// A kernel entry's arguments: each a tensor or param name, once; every tensor passed.
void lower_kernel_args(TaskContext& ctx, const ast::EntryDecl& e, model::Entry& out) {
  DiagnosticEngine& d = ctx.diags();
  std::set<std::string> passed;
  for (const ast::Arg& a : e.args) {
    const auto* n = std::get_if<ast::NameRef>(&a.value->node);
    if (!n || !a.name.empty()) {
      d.report(a.value->where, Msg::type_mismatch, "a kernel argument", "a tensor or param name",
               "an expression");
      continue;
    }
    if (!ctx.tensors.count(n->name) && !ctx.params.count(n->name)) {
      std::vector<std::string> cands;
      for (const auto& [k, v] : ctx.tensors) cands.push_back(k);
      for (const auto& [k, v] : ctx.params) cands.push_back(k);
      std::string hint = closest_match(n->name, cands);
      if (hint.empty())
        d.report(a.value->where, Msg::kernel_arg_unknown, n->name);
      else
        d.report(a.value->where, Msg::kernel_arg_unknown_hint, n->name, hint);
      continue;
    }
    if (!passed.insert(n->name).second) {
      d.report(a.value->where, Msg::kernel_arg_duplicate, n->name);
      continue;
    }
    out.args.push_back(n->name);
  }
  for (const auto& [name, t] : ctx.tensors)
    if (!passed.count(name)) d.report(e.symbol_where, Msg::kernel_arg_missing, e.symbol, name);
}

// A kernel entry's `grid`, `block` (both required) and `shared`.
void lower_launch(TaskContext& ctx, const ast::EntryDecl& e, model::Entry& out) {
  if (!e.grid || !e.block) {
    ctx.diags().report(e.symbol_where, Msg::launch_missing, e.symbol);
    return;
  }
  model::LaunchGeometry g;
  lower_geometry(ctx, e.grid, g.grid, "'grid'");
  lower_geometry(ctx, e.block, g.block, "'block'");
  if (e.shared) {
    model::ExprRef shared[3];
    lower_geometry(ctx, e.shared, shared, "'shared'");
    g.shared_bytes = shared[0];
  }
  out.launch = g;
}

void lower_entry(TaskContext& ctx, const ast::EntryDecl& e, const std::string& kind,
                 model::Entry& out) {
  DiagnosticEngine& d = ctx.diags();
  out.flavor = flavor_of(e.flavor);
  out.mode = mode_of(e.mode);
  out.where = e.where;
  auto allowed = flavors_for(kind, e.which);
  if (std::find(allowed.begin(), allowed.end(), e.flavor) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : " or ") + a;
    d.report(e.flavor_where, Msg::kind_flavor_mismatch, kind, list, e.which, e.flavor);
  }
  if (!mode_allowed(e.flavor, e.mode))
    d.report(e.mode_where, Msg::entry_mode_mismatch, e.flavor, e.mode);
  out.file = normal_path(ctx.task.dir / e.file);
  std::error_code ec;
  if (e.file.empty() || !fs::is_regular_file(out.file, ec))
    d.report(e.file_where, Msg::missing_source_file, e.file);
  else
    ctx.referenced.push_back(out.file);
  out.symbol = e.symbol.empty() && e.mode == "launcher" ? "kta_launch" : e.symbol;

  if (e.mode == "module") {
    for (const ast::Arg& a : e.args) {
      ctx.sema.check_expr(*a.value, ctx.scope);
      out.init_args.push_back(ctx.sema.lower_expr(a.value, ctx.module));
    }
    return;
  }
  if (e.mode != "kernel") return;
  lower_kernel_args(ctx, e, out);
  lower_launch(ctx, e, out);
}

// The candidate: declared (torch2hip must), else the baseline entry, which the agent edits.
void check_candidate(TaskContext& ctx, const std::string& kind) {
  DiagnosticEngine& d = ctx.diags();
  if (!ctx.candidate) {
    if (kind == "torch2hip") d.report(ctx.decl.name_where, Msg::candidate_missing, ctx.decl.name);
    ctx.task.candidate = ctx.task.baseline;
    return;
  }
  size_t before = d.error_count();
  lower_entry(ctx, *ctx.candidate, kind, ctx.task.candidate);
  if (d.error_count() == before && kind != "torch2hip" && ctx.baseline &&
      ctx.candidate->flavor != ctx.baseline->flavor)
    d.report(ctx.candidate->flavor_where, Msg::candidate_flavor_mismatch, ctx.candidate->flavor,
             ctx.baseline->flavor, kind);
}

}  // namespace

void check_entries(TaskContext& ctx) {
  std::string kind = ctx.settings.count("kind") ? "" : "?";
  if (auto it = ctx.settings.find("kind"); it != ctx.settings.end()) {
    const ast::Expr* v =
        it->second.front()->values.size() == 1 ? it->second.front()->values[0].get() : nullptr;
    if (const auto* n = v ? std::get_if<ast::NameRef>(&v->node) : nullptr) kind = n->name;
  }
  if (ctx.reference) lower_entry(ctx, *ctx.reference, kind, ctx.task.reference);
  if (ctx.baseline) lower_entry(ctx, *ctx.baseline, kind, ctx.task.baseline);
  check_candidate(ctx, kind);
  bool has_candidate = ctx.candidate || ctx.baseline;
  const ast::EntryDecl* cand_decl = ctx.candidate ? ctx.candidate : ctx.baseline;

  // Editable files: what the agent may change; for hip and triton tasks, the candidate's source.
  auto it = ctx.settings.find("editable");
  if (it == ctx.settings.end()) {
    if (has_candidate) ctx.task.editable.push_back(ctx.task.candidate.file);
    return;
  }
  for (const ast::Setting* s : it->second) {
    if (s->has_block || s->values.empty()) {
      ctx.diags().report(s->key_where, Msg::type_mismatch, "'editable'", "a list of file names",
                         "nothing");
      continue;
    }
    for (const ast::ExprPtr& v : s->values) {
      const auto* str = std::get_if<ast::StringLit>(&v->node);
      if (!str) {
        ctx.diags().report(v->where, Msg::type_mismatch, "an editable file", "a string",
                           "an expression");
        continue;
      }
      fs::path p = normal_path(ctx.task.dir / str->value);
      if (kind != "torch2hip" && has_candidate && p != ctx.task.candidate.file) {
        if (ctx.candidate)
          ctx.diags().report(v->where, Msg::editable_not_candidate, str->value, cand_decl->file);
        else
          ctx.diags().report(v->where, Msg::editable_not_baseline, str->value, cand_decl->file);
        continue;
      }
      ctx.task.editable.push_back(p);
    }
  }
  const auto& ed = ctx.task.editable;
  if (ctx.candidate && !ctx.task.candidate.file.empty() &&
      std::find(ed.begin(), ed.end(), ctx.task.candidate.file) == ed.end())
    ctx.diags().report(ctx.candidate->file_where, Msg::candidate_not_editable, ctx.candidate->file);
}

}  // namespace kta::lang
