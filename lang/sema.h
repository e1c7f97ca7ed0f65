// Semantic analysis: shared state of the passes that check a module's declarations and lower its
// tasks and plans to the checked model. Each pass is a free function in its own sema_*.cpp file and
// reports every problem it finds instead of stopping at the first.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lang/ast.h"
#include "lang/diagnostics.h"
#include "lang/eval.h"
#include "lang/model.h"
#include "lang/module.h"

namespace kta::lang {

struct TaskContext;

// Static types of expressions.
enum class Ty { integer, number, boolean, string, duration, list, tuple, call, any };
const char* type_name(Ty t);  // "an integer", ...
// What a declaration is, for messages: "constant", "tolerance preset", "distribution", ...
const char* decl_kind(const ast::Decl& d);

// Names an expression may use unqualified besides module constants: params, axes, agent params.
struct Scope {
  Module* module = nullptr;
  std::map<std::string, Ty> names;
  bool names_are_params = true;  // unknown names are reported as "unknown param"
};

// A top-level declaration found by name, with the module that declares it.
struct Resolved {
  Module* module = nullptr;
  const ast::Decl* decl = nullptr;
  std::string qualified;  // module.name or the local name
};

class Sema {
 public:
  Sema(ModuleLoader& module_loader, const LoadOptions& load_options)
      : loader(module_loader), options(load_options) {}

  ModuleLoader& loader;
  const LoadOptions& options;
  DiagnosticEngine& diags() { return loader.diags(); }

  // Finds `name` (plain or qualified) from `from`; reports unknown names when `report`.
  std::optional<Resolved> resolve(Module& from, const std::string& name, SourceRange where,
                                  bool report = true);
  // The value of a constant, evaluated once; nullopt after an error (reported).
  std::optional<model::Value> const_value(Module& m, const ast::ConstDecl& c);

  // Type-checks an expression: unknown names and functions, operand types. Returns its type.
  Ty check_expr(const ast::Expr& e, const Scope& scope);
  // Evaluates an expression made of literals and constants (no params); reports errors.
  std::optional<model::Value> eval_const(const ast::Expr& e, Module& m, const std::string& what);
  // Copies an expression with every constant replaced by its value, for the model.
  ast::ExprPtr lower_expr(const ast::ExprPtr& e, Module& m);

  // Settings helpers: each reports its own errors.
  const ast::Expr* single_value(const ast::Setting& s);
  std::optional<std::string> word(const ast::Setting& s,
                                  std::initializer_list<std::string_view> allowed);
  std::optional<std::string> string_value(const ast::Setting& s, Module& m);
  std::optional<int64_t> int_value(const ast::Setting& s, Module& m, int64_t min);
  std::optional<double> number_value(const ast::Setting& s, Module& m);
  std::optional<int64_t> duration_value(const ast::Setting& s, Module& m);
  std::optional<bool> bool_value(const ast::Setting& s, Module& m);

  // A call's argument expression for each parameter of a callable, with the module it is read in
  // (a default's: the declaring module); reports unknown, duplicate and missing arguments and
  // leaves those out.
  struct BoundExpr {
    const ast::Expr* expr = nullptr;
    Module* module = nullptr;
  };
  std::map<std::string, BoundExpr> call_exprs(const ast::Call& call, Module& from,
                                              const ast::CallableDecl& decl, Module& decl_module,
                                              size_t skip = 0);
  // Binds a call's arguments to a callable's parameters: unknown, duplicate and missing
  // arguments, type errors; defaults filled in. `skip` leading positional args are not bound.
  // List-typed parameters ([f64], [distribution]) are left to their callers (distribution_of).
  std::optional<std::map<std::string, model::Value>> bind_call(const ast::Call& call, Module& from,
                                                               const ast::CallableDecl& decl,
                                                               Module& decl_module,
                                                               size_t skip = 0);
  // Resolves a call's callee to a callable of `kind` (distribution, generator, agent).
  std::optional<std::pair<const ast::CallableDecl*, Module*>> callable(const ast::Call& call,
                                                                       Module& from,
                                                                       std::string_view kind);

  // `task`: the tolerance is a task's own, whose fields may use its params (evaluated per shape
  // point); null for a preset's body, which may use constants only.
  std::optional<model::Tolerance> tolerance_of(const ast::Setting& s, Module& m,
                                               const TaskContext* task = nullptr);
  std::optional<model::Tolerance> tolerance_body(const std::vector<ast::Setting>& body, Module& m,
                                                 const TaskContext* task = nullptr);
  // A tolerance preset's body, checked once however many tasks use it (its errors reported once).
  std::optional<model::Tolerance> tolerance_preset(const ast::PresetDecl& p, Module& m);
  std::optional<model::Timing> timing_of(const ast::Setting& s, Module& m);
  std::optional<model::Timing> timing_body(const std::vector<ast::Setting>& body, Module& m);
  std::optional<model::AgentUse> agent_use(const ast::Expr& e, Module& from);

 private:
  std::map<const ast::ConstDecl*, std::optional<model::Value>> const_values_;
  std::set<const ast::ConstDecl*> evaluating_;
  std::map<const ast::PresetDecl*, std::optional<model::Tolerance>> tolerance_presets_;
};

// The state of lowering one task.
struct TaskContext {
  Sema& sema;
  Module& module;
  const ast::TaskDecl& decl;
  model::Task& task;
  std::map<std::string, const ast::ParamDecl*> params;
  std::map<std::string, const ast::TensorDecl*> tensors;
  std::map<std::string, std::vector<const ast::Setting*>> settings;  // by key
  const ast::EntryDecl* reference = nullptr;
  const ast::EntryDecl* baseline = nullptr;
  const ast::EntryDecl* candidate = nullptr;  // optional except for torch2hip
  const ast::ShapesDecl* visible = nullptr;
  const ast::ShapesDecl* heldout = nullptr;
  Scope scope;                                    // every param, typed
  std::vector<std::filesystem::path> referenced;  // files whose bytes go into the content hash
  DiagnosticEngine& diags() { return sema.diags(); }
};

// ---- passes ----
void check_module_decls(Sema& sema, Module& m);  // sema_decls.cpp
void collect_task_items(TaskContext& ctx);       // sema_names.cpp
void check_tensors(TaskContext& ctx);            // sema_tensors.cpp
// A tensor's initializer as a distribution, its arguments checked against the tensor's dtype.
std::optional<model::Distribution> distribution_of(TaskContext& ctx, const ast::TensorDecl& tensor,
                                                   model::DType dtype);  // sema_distributions.cpp
void check_entries(TaskContext& ctx);                                    // sema_entries.cpp
void check_grids(TaskContext& ctx);                                      // sema_grids.cpp
void check_tolerances_and_gates(TaskContext& ctx);                       // sema_gates.cpp
std::optional<model::Task> lower_task(Sema& sema, Module& m,
                                      const ast::TaskDecl& decl);  // sema_task.cpp
std::optional<model::Plan> lower_plan(Sema& sema, Module& m,
                                      const ast::PlanDecl& decl);  // sema_plan.cpp
std::optional<model::AgentDecl> lower_agent(Sema& sema, Module& m, const ast::CallableDecl& decl,
                                            const std::map<std::string, model::Value>& args,
                                            bool report = true);  // sema_agents.cpp

}  // namespace kta::lang

namespace kta::lang {
// Runs check_module_decls on every parsed module the loader holds that was not checked yet.
void check_all_modules(Sema& sema);  // sema_decls.cpp
// The single .kta file of a folder, or the file itself; reports folders with none or several.
std::optional<std::filesystem::path> task_file_of(const std::filesystem::path& p,
                                                  DiagnosticEngine& d,
                                                  SourceRange where);  // sema_plan.cpp
// Paths matching a pattern with `*`, `?` and `**` components, sorted.
std::vector<std::filesystem::path> glob_paths(
    const std::filesystem::path& pattern);  // sema_plan.cpp
}  // namespace kta::lang
