#include "engine/agents/workspace.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <fstream>
#include <set>

#include "lang/format.h"
#include "lang/hash.h"
#include "lang/parse.h"
#include "lang/source_manager.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

bool write_text(const fs::path& p, const std::string& text, fs::perms perms) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return false;
  std::error_code ec;
  fs::permissions(p, perms, ec);
  return !ec;
}

// The files the agent may read besides the task: entry sources and headers next to them.
std::set<fs::path> readable_sources(const model::Task& task) {
  std::set<fs::path> files;
  for (const model::Entry* e : {&task.reference, &task.baseline, &task.candidate})
    if (!e->file.empty()) files.insert(e->file);
  for (const auto& f : task.editable) files.insert(f);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(task.dir, ec)) {
    auto ext = entry.path().extension().string();
    if (entry.is_regular_file(ec) &&
        (ext == ".h" || ext == ".hpp" || ext == ".cuh" || ext == ".inc"))
      files.insert(entry.path());
  }
  return files;
}

std::string check_script(const TaskJob& job, const fs::path& kta, const std::string& device) {
  std::string copies;
  for (const auto& f : job.task.editable) {
    std::string name = f.filename().string();
    copies +=
        fmt::format("cp \"$here/{0}\" \"$here/.check/solutions/{1}/{0}\"\n", name, job.task.name);
  }
  return fmt::format(
      "#!/bin/sh\n"
      "# Builds and checks the candidate (the editable files in this folder) on the task's "
      "visible\n"
      "# shapes: compile, correctness against the reference, speedup over the baseline. Extra\n"
      "# arguments go to `kta eval` (e.g. --quick for short timing). The held-out check after the\n"
      "# run uses shapes that are not in this folder.\n"
      "set -e\n"
      "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
      "rm -rf \"$here/.check/solutions\"\n"
      "mkdir -p \"$here/.check/solutions/{0}\"\n"
      "{1}"
      "KTA_CACHE_DIR=\"$here/.check/cache\" exec '{2}' eval \"$here/task/{3}\" --device {4} \\\n"
      "  --replay \"$here/.check/solutions\" --output \"$here/.check/run\" \"$@\"\n",
      job.task.name, copies, kta.string(), kTaskFile, device);
}

}  // namespace

std::optional<std::string> visible_task_text(const model::Task& task, std::string* error) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  uint32_t id = sources.load(task.file);
  auto file = id ? lang::parse_file(id, diags) : std::nullopt;
  if (!file) {
    if (error) *error = "cannot parse " + task.file.string();
    return std::nullopt;
  }
  std::vector<ast::Decl> kept;
  for (auto& d : file->decls) {
    if (auto* t = std::get_if<ast::TaskDecl>(&d)) {
      if (t->name != task.name) continue;
      std::erase_if(t->items, [](const ast::TaskItem& item) {
        const auto* s = std::get_if<ast::ShapesDecl>(&item);
        return s && s->which == "heldout";
      });
    } else if (std::holds_alternative<ast::PlanDecl>(d)) {
      continue;
    }
    kept.push_back(std::move(d));
  }
  file->decls = std::move(kept);
  // Comments may describe the held-out grid; the view keeps none.
  file->comments.clear();
  return lang::format_file(*file, sources.file(id).text);
}

std::optional<std::string> make_workspace(const TaskJob& job, const fs::path& dir,
                                          const WorkspaceSpec& spec) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    // task/ is read-only; make it writable again so it can be removed.
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      fs::permissions(it->path(), fs::perms::owner_write, fs::perm_options::add, ec);
    fs::permissions(dir, fs::perms::owner_write, fs::perm_options::add, ec);
    fs::remove_all(dir, ec);
    if (ec) return "cannot clear workspace " + dir.string() + ": " + ec.message();
  }
  fs::path task_dir = dir / kTaskDir;
  fs::create_directories(task_dir, ec);
  if (ec) return "cannot create workspace " + dir.string() + ": " + ec.message();
  const auto ro = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
  for (const auto& f : job.task.editable) {
    fs::copy_file(f, dir / f.filename(), fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot copy " + f.string() + ": " + ec.message();
  }
  for (const auto& f : readable_sources(job.task)) {
    fs::path rel = f.lexically_relative(job.task.dir);
    if (rel.empty() || rel.begin()->string() == "..") rel = f.filename();
    fs::create_directories((task_dir / rel).parent_path(), ec);
    fs::copy_file(f, task_dir / rel, fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot copy " + f.string() + ": " + ec.message();
    fs::permissions(task_dir / rel, ro, ec);
  }
  std::string why;
  auto text = visible_task_text(job.task, &why);
  if (!text) return why;
  if (!write_text(task_dir / kTaskFile, *text, ro)) return "cannot write the task view";
  fs::path kta = spec.kta_binary.empty() ? fs::read_symlink("/proc/self/exe", ec) : spec.kta_binary;
  auto rx = ro | fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  if (!write_text(dir / "check", check_script(job, kta, spec.device), rx))
    return "cannot write the check script";
  fs::permissions(task_dir, rx, ec);
  return std::nullopt;
}

Snapshot snapshot(const fs::path& root) {
  Snapshot s;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(
           root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    fs::path rel = it->path().lexically_relative(root);
    if (rel.begin()->string() == ".check") {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    s[rel.generic_string()] = FileState{it->file_size(ec), lang::hash_file(it->path())};
  }
  return s;
}

Snapshot outside_snapshot(const fs::path& run_dir, const fs::path& workspace) {
  Snapshot s;
  fs::path run = run_dir.lexically_normal();
  for (fs::path d = workspace.lexically_normal().parent_path();; d = d.parent_path()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec)) {
      std::string name = e.path().filename().string();
      // The results store changes under the run as it goes.
      if (!e.is_regular_file(ec) || name.starts_with("results.")) continue;
      s[e.path().lexically_relative(run).generic_string()] =
          FileState{e.file_size(ec), lang::hash_file(e.path())};
    }
    if (d == run || d == d.parent_path() || d.string().size() <= run.string().size()) break;
  }
  return s;
}

WorkspaceChanges compare_snapshots(const Snapshot& before, const Snapshot& after,
                                   const std::map<std::string, fs::path>& baseline) {
  WorkspaceChanges c;
  for (const auto& [name, base] : baseline) {
    auto b = before.find(name), a = after.find(name);
    bool changed = a == after.end() || b == before.end() || !(a->second == b->second);
    if (changed) c.editable_changed.push_back(name);
    if (a == after.end() || a->second.hash != lang::hash_file(base)) c.unchanged = false;
  }
  auto readonly = [](const std::string& p) { return p.starts_with(std::string(kTaskDir) + "/"); };
  for (const auto& [path, state] : before) {
    if (baseline.count(path)) continue;
    auto a = after.find(path);
    if (a != after.end() && a->second == state) continue;
    if (readonly(path))
      c.readonly_edited.push_back(path);
    else
      c.other.push_back((a == after.end() ? "deleted " : "modified ") + path);
  }
  for (const auto& [path, state] : after) {
    if (before.count(path) || baseline.count(path)) continue;
    if (readonly(path))
      c.readonly_edited.push_back(path);
    else
      c.other.push_back("created " + path);
  }
  return c;
}

}  // namespace kta::engine
