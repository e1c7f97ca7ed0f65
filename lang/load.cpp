// load_file and load_files: the front end's entry points for the CLI and the engine.
#include "lang/load.h"

#include "lang/sema.h"

namespace kta::lang {

namespace fs = std::filesystem;

namespace {

std::optional<Loaded> load_one(const fs::path& path, ModuleLoader& loader, Sema& sema) {
  DiagnosticEngine& diags = loader.diags();
  size_t before = diags.error_count();
  auto file = task_file_of(path, diags, {});
  if (!file) return std::nullopt;
  Module* m = loader.load(*file);
  if (!m) return std::nullopt;
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

}  // namespace

std::optional<Loaded> load_file(const fs::path& path, DiagnosticEngine& diags,
                                const LoadOptions& options) {
  ModuleLoader loader(diags, options);
  Sema sema(loader, options);
  return load_one(path, loader, sema);
}

std::vector<std::optional<Loaded>> load_files(const std::vector<fs::path>& paths,
                                              DiagnosticEngine& diags, const LoadOptions& options) {
  ModuleLoader loader(diags, options);
  Sema sema(loader, options);
  std::vector<std::optional<Loaded>> out;
  for (const fs::path& p : paths) out.push_back(load_one(p, loader, sema));
  return out;
}

}  // namespace kta::lang
