// Lowering one task: runs the task passes in order and fills in the content hash.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "lang/hash.h"
#include "lang/sema.h"

namespace kta::lang {

namespace {

model::TaskKind kind_of(const std::string& k) {
  if (k == "triton2triton") return model::TaskKind::triton2triton;
  if (k == "torch2hip") return model::TaskKind::torch2hip;
  return model::TaskKind::hip2hip;
}

void lower_annotations(TaskContext& ctx) {
  Sema& sema = ctx.sema;
  auto first = [&](const char* key) -> const ast::Setting* {
    auto it = ctx.settings.find(key);
    return it == ctx.settings.end() ? nullptr : it->second.front();
  };
  if (const ast::Setting* s = first("kind"))
    if (auto w = sema.word(*s, {"hip2hip", "triton2triton", "torch2hip"}))
      ctx.task.kind = kind_of(*w);
  if (const ast::Setting* s = first("summary"))
    if (auto v = sema.string_value(*s, ctx.module)) ctx.task.summary = *v;
  if (const ast::Setting* s = first("notes"))
    if (auto v = sema.string_value(*s, ctx.module)) ctx.task.notes = *v;
  for (const char* key : {"bytes", "flops"}) {
    const ast::Setting* s = first(key);
    if (!s) continue;
    const ast::Expr* v = sema.single_value(*s);
    if (!v) continue;
    size_t before = ctx.diags().error_count();
    Ty t = sema.check_expr(*v, ctx.scope);
    if (ctx.diags().error_count() != before) continue;
    if (t != Ty::integer && t != Ty::number && t != Ty::any) {
      ctx.diags().report(v->where, Msg::type_mismatch, fmt::format("'{}'", key), "a number",
                         type_name(t));
      continue;
    }
    (std::string_view(key) == "bytes" ? ctx.task.bytes : ctx.task.flops) =
        sema.lower_expr(s->values[0], ctx.module);
  }
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::error_code ec;
  if (in && std::filesystem::is_regular_file(p, ec)) {  // size known: one read
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    if (size >= 0 && in.seekg(0, std::ios::beg)) {
      std::string text(static_cast<size_t>(size), '\0');
      in.read(text.data(), size);
      text.resize(static_cast<size_t>(in.gcount()));
      return text;
    }
    in.clear();
    in.seekg(0, std::ios::beg);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Hash of the task file, every module it imports (transitively) and every file it references.
std::string content_hash(TaskContext& ctx) {
  const SourceManager& sm = ctx.diags().sources();
  uint64_t h = fnv1a64(ctx.decl.name);
  std::set<const Module*> seen;
  std::vector<const Module*> todo{&ctx.module};
  while (!todo.empty()) {
    const Module* m = todo.back();
    todo.pop_back();
    if (!seen.insert(m).second) continue;
    h = fnv1a64(m->name, h);
    h = fnv1a64(sm.file(m->file).text, h);
    for (const auto& [k, dep] : m->imports) todo.push_back(dep);
  }
  std::vector<std::filesystem::path> files = ctx.referenced;
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (const auto& f : files) {
    h = fnv1a64(f.filename().string(), h);
    h = fnv1a64(read_all(f), h);
  }
  return hex64(h);
}

}  // namespace

std::optional<model::Task> lower_task(Sema& sema, Module& m, const ast::TaskDecl& decl) {
  size_t before = sema.diags().error_count();
  model::Task task;
  task.name = decl.name;
  task.file = m.path;
  task.dir = m.path.parent_path();
  task.where = decl.where;
  TaskContext ctx{sema,
                  m,
                  decl,
                  task,
                  {},
                  {},
                  {},
                  nullptr,
                  nullptr,
                  nullptr,
                  nullptr,
                  nullptr,
                  Scope{&m, {}, true},
                  {}};
  collect_task_items(ctx);
  check_tensors(ctx);
  check_entries(ctx);
  lower_annotations(ctx);
  check_tolerances_and_gates(ctx);
  check_grids(ctx);
  for (const auto& e : task.editable) ctx.referenced.push_back(e);
  task.content_hash = content_hash(ctx);
  if (sema.diags().error_count() != before) return std::nullopt;
  return task;
}

}  // namespace kta::lang
