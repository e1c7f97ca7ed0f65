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
  std::string task_label = fmt::format("task '{}'", ctx.decl.name);
  for (const ast::TaskItem& item : ctx.decl.items) {
    if (const auto* p = std::get_if<ast::ParamDecl>(&item)) {
      if (declare(p->name, p->name_where, p->where)) {
        ctx.params[p->name] = p;
        ctx.scope.names[p->name] = param_ty(p->type);
      }
    } else if (const auto* t = std::get_if<ast::TensorDecl>(&item)) {
      if (declare(t->name, t->name_where, t->where)) ctx.tensors[t->name] = t;
    } else if (const auto* e = std::get_if<ast::EntryDecl>(&item)) {
      const ast::EntryDecl*& slot = e->which == "reference"  ? ctx.reference
                                    : e->which == "baseline" ? ctx.baseline
                                                             : ctx.candidate;
      if (slot) {
        d.report(e->where, Msg::duplicate_setting, e->which);
        d.note(slot->where, Msg::note_previous_definition);
      } else {
        slot = e;
      }
    } else if (const auto* sh = std::get_if<ast::ShapesDecl>(&item)) {
      const ast::ShapesDecl*& slot = sh->which == "visible" ? ctx.visible : ctx.heldout;
      if (slot) {
        d.report(sh->which_where, Msg::duplicate_setting, "shapes " + sh->which);
        d.note(slot->where, Msg::note_previous_definition);
      } else {
        slot = sh;
      }
    } else {
      const auto& s = std::get<ast::Setting>(item);
      bool known = false;
      for (auto k : kTaskKeys) known |= k == s.key;
      if (!known) {
        std::vector<std::string> cands;
        for (auto k : kTaskKeys) cands.emplace_back(k);
        for (auto k : kStatementWords) cands.emplace_back(k);
        std::string hint = closest_match(s.key, cands);
        if (hint.empty())
          d.report(s.key_where, Msg::unknown_setting, s.key, task_label);
        else
          d.report(s.key_where, Msg::unknown_setting_hint, s.key, task_label, hint);
        continue;
      }
      auto& list = ctx.settings[s.key];
      if (!list.empty() && !repeatable(s.key)) {
        d.report(s.key_where, Msg::duplicate_setting, s.key);
        d.note(list.front()->where, Msg::note_previous_definition);
        continue;
      }
      list.push_back(&s);
    }
  }
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

}  // namespace kta::lang
