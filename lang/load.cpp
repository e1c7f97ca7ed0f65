// load_file: the front end's entry point for the CLI and the engine.
#include "lang/load.h"

#include "lang/sema.h"

namespace kta::lang {

namespace fs = std::filesystem;

std::optional<Loaded> load_file(const fs::path& path, DiagnosticEngine& diags, const LoadOptions& options) {
  size_t before = diags.error_count();
  auto file = task_file_of(path, diags, {});
  if (!file) return std::nullopt;
  ModuleLoader loader(diags, options);
  Module* m = loader.load(*file);
  if (!m) return std::nullopt;
  Sema sema(loader, options);
  check_all_modules(sema);
  Loaded out;
  for (const ast::Decl& d : m->ast.decls) {
    if (const auto* t = std::get_if<ast::TaskDecl>(&d)) {
      if (auto task = lower_task(sema, *m, *t)) out.tasks.push_back(std::move(*task));
    } else if (const auto* p = std::get_if<ast::PlanDecl>(&d)) {
      if (auto plan = lower_plan(sema, *m, *p)) out.plans.push_back(std::move(*plan));
    }
  }
  check_all_modules(sema);
  if (diags.error_count() != before) return std::nullopt;
  return out;
}

}  // namespace kta::lang
