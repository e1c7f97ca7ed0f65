// Top-level declarations of a module: constants evaluate, presets have valid bodies, callables
// have typed parameters with fitting defaults, agents have a command and known placeholders.
#include <fmt/format.h>

#include "lang/sema.h"

namespace kta::lang {
namespace {

constexpr std::string_view kParamTypes[] = {"i32", "i64",  "u32",    "u64",      "f32",
                                            "f64", "bool", "string", "duration", "size"};
// Lists are arguments of distributions only: categorical weights, mixture components.
constexpr std::string_view kListTypes[] = {"[f64]", "[distribution]"};

void check_callable(Sema& sema, Module& m, const ast::CallableDecl& c) {
  DiagnosticEngine& d = sema.diags();
  std::set<std::string> names;
  for (const ast::ParamSig& p : c.params) {
    if (!names.insert(p.name).second) d.report(p.name_where, Msg::duplicate_definition, p.name);
    bool known = false;
    for (auto t : kParamTypes) known |= t == p.type;
    if (c.kind == "distribution")
      for (auto t : kListTypes) known |= t == p.type;
    if (!known) {
      d.report(p.type_where, Msg::bad_enum, fmt::format("the type of '{}'", p.name),
               c.kind == "distribution"
                   ? "i32, i64, u32, u64, f32, f64, bool, string, duration, size, [f64], "
                     "[distribution]"
                   : "i32, i64, u32, u64, f32, f64, bool, string, duration, size",
               p.type);
      continue;
    }
  }
  if (c.kind != "agent" && !c.builtin) {
    d.report(c.name_where, Msg::type_mismatch, fmt::format("{} '{}'", c.kind, c.name), "builtin",
             "a body");
    return;
  }
  if (c.kind != "agent") return;
  // Binding the defaults checks their types; agents without defaults are checked at their uses.
  bool all_defaults = true;
  for (const ast::ParamSig& p : c.params) all_defaults &= p.default_value != nullptr;
  if (all_defaults) {
    ast::Call call{c.name, c.name_where, {}};
    if (auto args = sema.bind_call(call, m, c, m)) lower_agent(sema, m, c, *args);
  } else {
    std::map<std::string, model::Value> placeholders;
    for (const ast::ParamSig& p : c.params) {
      if (p.type == "string")
        placeholders[p.name] = std::string();
      else if (p.type == "bool")
        placeholders[p.name] = false;
      else if (p.type[0] == 'f')
        placeholders[p.name] = 0.0;
      else
        placeholders[p.name] = int64_t{1};
    }
    lower_agent(sema, m, c, placeholders);
  }
}

}  // namespace

void check_module_decls(Sema& sema, Module& m) {
  if (m.checked) return;
  m.checked = true;
  for (const ast::Decl& d : m.ast.decls) {
    if (const auto* c = std::get_if<ast::ConstDecl>(&d)) {
      sema.const_value(m, *c);
    } else if (const auto* p = std::get_if<ast::PresetDecl>(&d)) {
      if (p->kind == "tolerance")
        sema.tolerance_preset(*p, m);
      else
        sema.timing_body(p->body, m);
    } else if (const auto* cd = std::get_if<ast::CallableDecl>(&d)) {
      check_callable(sema, m, *cd);
    }
  }
}

}  // namespace kta::lang

namespace kta::lang {

void check_all_modules(Sema& sema) {
  for (Module* m : sema.loader.modules())
    if (m->parsed && !m->checked) check_module_decls(sema, *m);
}

}  // namespace kta::lang
