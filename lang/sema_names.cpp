// Task statements by name: duplicates, unknown setting keys, missing required statements, and the
// scope of params that later passes check expressions against.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {
namespace {

constexpr std::string_view kTaskKeys[] = {"kind", "summary", "notes", "editable", "tolerance",
                                          "gate", "timing",  "bytes", "flops"};
constexpr std::string_view kStatementWords[] = {"param",     "input",    "output",    "inout",
                                                "reference", "baseline", "candidate", "shapes"};
// Keys that may appear on several lines (each with its own subject, or adding values).
bool repeatable(std::string_view key) {
  return key == "tolerance" || key == "gate" || key == "editable";
}

Ty param_ty(const std::string& type) {
  if (type == "bool") return Ty::boolean;
  if (type[0] == 'f') return Ty::number;
  return Ty::integer;
}

// `reference`, `baseline` or `candidate`: one each.
void collect_entry(TaskContext& ctx, const ast::EntryDecl& e) {
  const ast::EntryDecl*& slot = e.which == "reference"  ? ctx.reference
                                : e.which == "baseline" ? ctx.baseline
                                                        : ctx.candidate;
  if (slot) {
    ctx.diags().report(e.where, Msg::duplicate_setting, e.which);
    ctx.diags().note(slot->where, Msg::note_previous_definition);
  } else {
    slot = &e;
  }
}

// `shapes visible` or `shapes heldout`: one each.
void collect_shapes(TaskContext& ctx, const ast::ShapesDecl& sh) {
  const ast::ShapesDecl*& slot = sh.which == "visible" ? ctx.visible : ctx.heldout;
  if (slot) {
    ctx.diags().report(sh.which_where, Msg::duplicate_setting, "shapes " + sh.which);
    ctx.diags().note(slot->where, Msg::note_previous_definition);
  } else {
    slot = &sh;
  }
}

// A task setting: a known key, once unless repeatable; kept by key for the later passes.
void collect_setting(TaskContext& ctx, const ast::Setting& s) {
  DiagnosticEngine& d = ctx.diags();
  bool known = false;
  for (auto k : kTaskKeys) known |= k == s.key;
  if (!known) {
    std::vector<std::string> cands;
    for (auto k : kTaskKeys) cands.emplace_back(k);
    for (auto k : kStatementWords) cands.emplace_back(k);
    std::string hint = closest_match(s.key, cands);
    std::string task_label = fmt::format("task '{}'", ctx.decl.name);
    if (hint.empty())
      d.report(s.key_where, Msg::unknown_setting, s.key, task_label);
    else
      d.report(s.key_where, Msg::unknown_setting_hint, s.key, task_label, hint);
    return;
  }
  auto& list = ctx.settings[s.key];
  if (!list.empty() && !repeatable(s.key)) {
    d.report(s.key_where, Msg::duplicate_setting, s.key);
    d.note(list.front()->where, Msg::note_previous_definition);
    return;
  }
  list.push_back(&s);
}

void report_missing_statements(TaskContext& ctx) {
  DiagnosticEngine& d = ctx.diags();
  for (std::string_view required : {"kind"}) {
    if (!ctx.settings.count(std::string(required)))
      d.report(ctx.decl.name_where, Msg::missing_statement, ctx.decl.name, required);
  }
  if (!ctx.reference)
    d.report(ctx.decl.name_where, Msg::missing_statement, ctx.decl.name, "reference");
  if (!ctx.baseline)
    d.report(ctx.decl.name_where, Msg::missing_statement, ctx.decl.name, "baseline");
  if (!ctx.visible)
    d.report(ctx.decl.name_where, Msg::missing_statement, ctx.decl.name, "visible shapes");
}

}  // namespace

void collect_task_items(TaskContext& ctx) {
  DiagnosticEngine& d = ctx.diags();
  std::map<std::string, SourceRange> names;  // params and tensors share one namespace
  auto declare = [&](const std::string& name, SourceRange where, SourceRange whole) {
    auto [it, fresh] = names.emplace(name, whole);
    if (!fresh) {
      d.report(where, Msg::duplicate_definition, name);
      d.note(it->second, Msg::note_previous_definition);
    }
    return fresh;
  };
  for (const ast::TaskItem& item : ctx.decl.items) {
    if (const auto* p = std::get_if<ast::ParamDecl>(&item)) {
      if (declare(p->name, p->name_where, p->where)) {
        ctx.params[p->name] = p;
        ctx.scope.names[p->name] = param_ty(p->type);
      }
    } else if (const auto* t = std::get_if<ast::TensorDecl>(&item)) {
      if (declare(t->name, t->name_where, t->where)) ctx.tensors[t->name] = t;
    } else if (const auto* e = std::get_if<ast::EntryDecl>(&item)) {
      collect_entry(ctx, *e);
    } else if (const auto* sh = std::get_if<ast::ShapesDecl>(&item)) {
      collect_shapes(ctx, *sh);
    } else {
      collect_setting(ctx, std::get<ast::Setting>(item));
    }
  }
  report_missing_statements(ctx);
}

}  // namespace kta::lang
