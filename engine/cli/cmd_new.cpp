// `kta new KIND NAME [--from FILE] [--dir DIR]`: scaffold a task folder DIR/NAME (engine/scaffold):
// a skeleton of the kind, or with --from a torch2hip task made from a PyTorch module file. The
// folder is written to a hidden staging folder beside it, checked as `kta check` checks it, and
// only then renamed into place, so a failure leaves nothing half-written. Exit status: 0 written,
// 1 when it could not be (an existing folder, a module that does not run, a scaffold that does not
// check), 2 for usage errors.
#include <fmt/format.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <iostream>

#include "engine/cli/commands.h"
#include "engine/scaffold/from_module.h"
#include "engine/scaffold/module_probe.h"
#include "engine/scaffold/scaffold.h"
#include "lang/load.h"

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

struct NewArgs {
  std::string kind, name, from;
  std::string dir = ".";
};

model::TaskKind kind_of(const std::string& kind) {
  if (kind == "torch2hip") return model::TaskKind::torch2hip;
  if (kind == "triton2triton") return model::TaskKind::triton2triton;
  return model::TaskKind::hip2hip;
}

// A hidden folder beside the target that becomes the target once complete; removed unless kept.
class Staging {
 public:
  explicit Staging(const fs::path& parent, const std::string& name) {
    std::string tmpl = (parent / ("." + name + ".kta-new-XXXXXX")).string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~Staging() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  const fs::path& path() const { return path_; }
  void kept() { path_.clear(); }

 private:
  fs::path path_;
};

bool write_files(const fs::path& root, const engine::Scaffold& s) {
  for (const engine::ScaffoldFile& f : s.files) {
    std::error_code ec;
    fs::create_directories((root / f.path).parent_path(), ec);
    std::ofstream out(root / f.path, std::ios::binary | std::ios::trunc);
    out << f.text;
    if (!out) {
      std::cerr << "kta new: cannot write '" << (root / f.path).string() << "'\n";
      return false;
    }
  }
  return true;
}

// The scaffold as `kta check` sees it; false (diagnostics printed) when it has errors.
bool checks_clean(const fs::path& kta_file, const CliState& state) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(kta_file, diags, state.load_options());
  diags.print(std::cerr, state.color_stderr());
  return loaded.has_value() && !diags.has_errors();
}

// The task made from --from's module; a scaffold with an error when the module does not probe.
engine::Scaffold from_module(const NewArgs& a, const CliState& state) {
  engine::Scaffold s;
  std::ifstream in(a.from, std::ios::binary);
  if (!in) {
    s.error = fmt::format("cannot read '{}'", a.from);
    return s;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  engine::ProbeOptions po;
  po.search = {state.settings.python, state.settings.path};
  po.configured_runner = state.settings.runner_script;
  engine::ModuleProbe probe = engine::probe_module(fs::absolute(a.from), po);
  std::string file = fs::path(a.from).filename().string();
  if (!probe.ok()) {
    s.error = fmt::format("cannot make a task of {}: {}", file, probe.error);
    if (!probe.traceback.empty()) s.error += "\n" + probe.traceback;
    while (!s.error.empty() && s.error.back() == '\n') s.error.pop_back();
    return s;
  }
  s = engine::scaffold_from_module(a.name, probe, file, text);
  if (!s.error.empty()) s.error = fmt::format("cannot make a task of {}: {}", file, s.error);
  return s;
}

// Why the target folder cannot be written (empty when it can: missing, or an empty folder).
std::string target_problem(const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(target, ec)) return {};
  if (!fs::is_directory(target, ec))
    return fmt::format("'{}' exists and is not a folder", target.string());
  if (!fs::is_empty(target, ec))
    return fmt::format(
        "'{}' already exists and is not empty; choose another name or --dir (nothing was "
        "overwritten)",
        target.string());
  return {};
}

void print_done(const NewArgs& a, const fs::path& target, const engine::Scaffold& s) {
  size_t holes = 0;
  for (const engine::ScaffoldFile& f : s.files)
    for (size_t at = f.text.find(engine::kAuthorTodo); at != std::string::npos;
         at = f.text.find(engine::kAuthorTodo, at + 1))
      ++holes;
  std::cout << fmt::format("created {} ({} task):\n", target.string(), a.kind);
  for (const engine::ScaffoldFile& f : s.files) std::cout << "  " << f.path.string() << "\n";
  std::string kta = (target / s.files.front().path).string();
  std::cout << fmt::format("{} holes to fill, each marked `{}`: grep -rn 'TODO(author)' {}\n",
                           holes, engine::kAuthorTodo, target.string());
  std::cout << fmt::format("next: kta check {} && kta eval {} --device {}\n", target.string(), kta,
                           a.kind == "triton2triton" ? "hip" : "cpu");
}

int run_new(const NewArgs& a, const CliState& state) {
  if (std::string why = engine::task_name_problem(a.name); !why.empty()) {
    std::cerr << "kta new: " << why << "\n";
    return 2;
  }
  if (!a.from.empty() && a.kind != "torch2hip") {
    std::cerr << "kta new: --from reads a PyTorch module for a torch2hip task, not " << a.kind
              << "\n";
    return 2;
  }
  fs::path target = a.dir == "." ? fs::path(a.name) : fs::path(a.dir) / a.name;
  if (std::string why = target_problem(target); !why.empty()) {
    std::cerr << "kta new: " << why << "\n";
    return 1;
  }
  engine::Scaffold s =
      a.from.empty() ? engine::skeleton_task(kind_of(a.kind), a.name) : from_module(a, state);
  if (!s.error.empty()) {
    std::cerr << "kta new: " << s.error << "\n";
    return 1;
  }
  std::error_code ec;
  fs::create_directories(a.dir, ec);
  Staging staging(a.dir, a.name);
  if (staging.path().empty()) {
    std::cerr << "kta new: cannot make a folder in '" << a.dir << "'\n";
    return 1;
  }
  if (!write_files(staging.path(), s)) return 1;
  if (!checks_clean(staging.path() / s.files.front().path, state)) {
    std::cerr << "kta new: the scaffold of '" << a.name
              << "' does not check (a bug in kta new); nothing was written\n";
    return 1;
  }
  if (fs::exists(target, ec)) fs::remove(target, ec);  // an empty folder (target_problem)
  fs::rename(staging.path(), target, ec);
  if (ec) {
    std::cerr << "kta new: cannot move the scaffold to '" << target.string()
              << "': " << ec.message() << "\n";
    return 1;
  }
  // mkdtemp made it private; the folder gets the permissions any new folder gets here.
  mode_t mask = umask(0);
  umask(mask);
  fs::permissions(target, static_cast<fs::perms>(0777 & ~mask), ec);
  staging.kept();
  print_done(a, target, s);
  return 0;
}

}  // namespace

void add_new_command(CLI::App& app, CliState& state) {
  auto args = std::make_shared<NewArgs>();
  auto* cmd = app.add_subcommand(
      "new", "scaffold a task folder: a .kta, reference, baseline and solution stub to fill in");
  cmd->add_option("kind", args->kind, "hip2hip, torch2hip or triton2triton")
      ->required()
      ->check(CLI::IsMember({"hip2hip", "torch2hip", "triton2triton"}));
  cmd->add_option("name", args->name, "the task's name: the folder, the .kta and its kernels")
      ->required();
  cmd->add_option("--from", args->from,
                  "torch2hip: a PyTorch module file (Model, get_inputs(), get_init_inputs()), run "
                  "once on the CPU for the tensors, dtypes and a first shape grid");
  cmd->add_option("--dir", args->dir, "the folder to create NAME/ in (default: the current one)");
  cmd->footer(
      "every decision left to the author is marked TODO(author): (docs/new.md)\n"
      "example: kta new hip2hip my_softmax --dir tasks/hip2hip\n"
      "example: kta new torch2hip my_mlp --from model.py");
  cmd->callback([args, &state] {
    try {
      state.exit_code = run_new(*args, state);
    } catch (const std::exception& e) {
      std::cerr << "kta new: " << e.what() << "\n";
      state.exit_code = 1;
    }
  });
}

}  // namespace kta::cli
