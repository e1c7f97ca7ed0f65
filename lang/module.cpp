// Module loading and import resolution: importing file's folder, LoadOptions::search_path, then
// the stdlib (LoadOptions::stdlib_dir or the compiled-in KTA_STDLIB_DIR).
#include "lang/module.h"

#include "lang/parse.h"

#ifndef KTA_STDLIB_DIR
#define KTA_STDLIB_DIR "stdlib"
#endif

namespace kta::lang {

namespace fs = std::filesystem;

fs::path default_stdlib_dir() { return KTA_STDLIB_DIR; }

ModuleLoader::ModuleLoader(DiagnosticEngine& diags, const LoadOptions& options)
    : diags_(diags), options_(options) {
  std::error_code ec;
  cwd_ = fs::current_path(ec);
  folders_ = compute_search_folders();
}

std::vector<fs::path> ModuleLoader::compute_search_folders() const {
  std::vector<fs::path> out = options_.search_path;
  out.push_back(options_.stdlib_dir.empty() ? default_stdlib_dir() : options_.stdlib_dir);
  return out;
}

std::vector<Module*> ModuleLoader::modules() {
  std::vector<Module*> out;
  for (auto& [path, m] : modules_) out.push_back(m.get());
  return out;
}

const ModuleCache::Entry* ModuleCache::find(const std::string& path, const Stamp& stamp) const {
  auto it = entries_.find(path);
  return it != entries_.end() && it->second.stamp == stamp ? &it->second : nullptr;
}

void ModuleCache::store(const std::string& path, Entry entry) {
  entries_.insert_or_assign(path, std::move(entry));
}

namespace {

// Messages name files relative to the working folder when that is shorter.
std::string display_name(const fs::path& path, const fs::path& abs, const fs::path& cwd) {
  std::string display = path.string();
  if (path.is_absolute()) {
    fs::path rel = abs.lexically_relative(cwd);
    if (!rel.empty() && rel.string().size() < display.size()) display = rel.string();
  } else {
    display = normal_path(path).string();
  }
  return display;
}

// Size and modification time of a regular file; nullopt when it has none (then it is not cached).
std::optional<ModuleCache::Stamp> file_stamp(const fs::path& abs) {
  ModuleCache::Stamp stamp;
  std::error_code sec;
  if (fs::is_regular_file(abs, sec))
    stamp.size = fs::file_size(abs, sec);
  else
    sec = std::make_error_code(std::errc::no_such_file_or_directory);
  if (!sec) stamp.mtime = fs::last_write_time(abs, sec);
  if (sec) return std::nullopt;
  return stamp;
}

// The module's declarations by name; imports have none.
void index_decls(Module& m, DiagnosticEngine& diags) {
  for (const ast::Decl& d : m.ast.decls) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (!std::is_same_v<T, ast::Import>) {
            auto [it, fresh] = m.decls.emplace(x.name, &d);
            if (!fresh) {
              diags.report(x.name_where, Msg::duplicate_definition, x.name);
              diags.note(ast::range_of(*it->second), Msg::note_previous_definition);
            }
          }
        },
        d);
  }
}

}  // namespace

bool ModuleLoader::read_module(Module& m, const fs::path& path, const std::string& display,
                               SourceRange requested_at, bool cacheable) {
  SourceManager& sources = diags_.sources();
  ModuleCache* cache = cacheable ? options_.module_cache : nullptr;
  std::optional<ModuleCache::Stamp> stamp;
  if (cache) stamp = file_stamp(m.path);
  if (!stamp) cache = nullptr;
  const ModuleCache::Entry* hit = cache ? cache->find(m.path.native(), *stamp) : nullptr;
  if (hit && hit->file == sources.size() + 1 && hit->name == display) {
    m.file = sources.add(display, m.path, hit->text, hit->line_starts);
    m.ast = hit->ast;
    return true;
  }
  m.file = sources.load(path, display);
  if (m.file == 0) {
    diags_.report(requested_at, Msg::cannot_read, path.string());
    return false;
  }
  size_t reported = diags_.diagnostics().size();
  auto parsed = parse_file(m.file, diags_);
  if (!parsed) return false;
  m.ast = std::move(*parsed);
  // Only a file that parsed without any diagnostic is kept: a hit reports nothing.
  if (cache && diags_.diagnostics().size() == reported) {
    const SourceFile& f = sources.file(m.file);
    cache->store(m.path.native(),
                 ModuleCache::Entry{*stamp, m.file, display, f.text, f.line_starts, m.ast});
  }
  return true;
}

Module* ModuleLoader::load(const fs::path& path, SourceRange requested_at, bool cacheable) {
  std::error_code ec;
  fs::path abs = normal_path(fs::absolute(path, ec));
  if (ec) abs = normal_path(fs::absolute(path));
  if (auto it = by_path_.find(abs.native()); it != by_path_.end())
    return it->second->parsed ? it->second : nullptr;
  auto m = std::make_unique<Module>();
  Module* raw = m.get();
  modules_[abs] = std::move(m);
  by_path_[abs.native()] = raw;
  raw->path = abs;
  raw->name = path.string();
  if (!read_module(*raw, path, display_name(path, abs, cwd_), requested_at, cacheable))
    return nullptr;
  raw->parsed = true;
  index_decls(*raw, diags_);
  loading_.push_back(abs);
  resolve_imports(*raw);
  loading_.pop_back();
  return raw;
}

void ModuleLoader::resolve_imports(Module& m) {
  for (const ast::Decl& d : m.ast.decls) {
    const auto* imp = std::get_if<ast::Import>(&d);
    if (!imp) continue;
    std::string rel = imp->module;
    for (char& c : rel)
      if (c == '.') c = '/';
    rel += ".kta";
    std::vector<fs::path> folders{m.path.parent_path()};
    folders.insert(folders.end(), folders_.begin(), folders_.end());
    fs::path found;
    std::error_code ec;
    for (const fs::path& f : folders) {
      fs::path candidate = f / rel;
      if (fs::is_regular_file(candidate, ec)) {
        found = std::move(candidate);
        break;
      }
    }
    std::string key = imp->alias.empty() ? imp->module : imp->alias;
    if (m.imports.count(key)) {
      diags_.report(imp->module_where, Msg::duplicate_import, key);
      continue;
    }
    if (found.empty()) {
      diags_.report(imp->module_where, Msg::unknown_module, imp->module, rel);
      std::string list;
      for (const fs::path& f : folders) {
        std::string shown = f.string();
        fs::path short_path = fs::absolute(f, ec).lexically_normal().lexically_relative(cwd_);
        if (!short_path.empty() && short_path.string().size() < shown.size())
          shown = short_path.string();
        list += (list.empty() ? "" : ", ") + shown;
      }
      diags_.note(imp->module_where, Msg::note_search_path, list);
      continue;
    }
    fs::path abs = normal_path(fs::absolute(found, ec));
    for (size_t i = 0; i < loading_.size(); ++i) {
      if (loading_[i] != abs) continue;
      std::string chain;
      for (size_t j = i; j < loading_.size(); ++j)
        chain += loading_[j].filename().string() + " -> ";
      chain += abs.filename().string();
      diags_.report(imp->module_where, Msg::import_cycle, chain);
      abs.clear();
      break;
    }
    if (abs.empty()) continue;
    Module* target = load(found, imp->module_where, true);
    if (!target) continue;
    if (target->name == found.string()) target->name = imp->module;
    m.imports[key] = target;
  }
}

}  // namespace kta::lang
