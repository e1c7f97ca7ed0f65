// `kta check FILE...`: parse, import and check .kta files; clang-style diagnostics or JSON.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>

#include "engine/cli/commands.h"
#include "engine/device/python/python_device.h"
#include "engine/device/remote/device_settings.h"
#include "engine/execute/bindings.h"
#include "lang/load.h"

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

// Files named on the command line; a folder stands for every .kta file below it.
std::vector<fs::path> expand_args(const std::vector<std::string>& args) {
  std::vector<fs::path> out;
  for (const std::string& a : args) {
    std::error_code ec;
    if (!fs::is_directory(a, ec)) {
      out.emplace_back(a);
      continue;
    }
    std::vector<fs::path> found;
    for (auto it =
             fs::recursive_directory_iterator(a, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->path().extension() == ".kta" && it->is_regular_file(ec)) found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    if (found.empty()) out.emplace_back(a);  // load_file reports the empty folder
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

// `kta check --compile`: each entry of each task compiled as `kta eval` compiles it, on the
// device `spec`, so that an entry name's typo or a signature that does not match the task's
// declaration shows up now, at the entry's line, and not inside the correctness step of a run.
class EntryCompiler {
 public:
  EntryCompiler(const CliState& state, const std::string& spec)
      : options_(engine::device_options(state.settings)),
        runners_(engine::runner_options(state.settings)) {
    options_.device = engine::resolve_device(spec, nullptr, options_.locations.hip_plugin);
    device_name_ = engine::device_spec_name(options_.device);
  }

  // Compiles the task's reference, baseline and (when it is another) candidate entry; reports
  // into `diags`. Returns the number of entries compiled.
  size_t check(const model::Task& task, lang::DiagnosticEngine& diags) {
    size_t compiled = 0;
    const model::Entry& b = task.baseline;
    const model::Entry& c = task.candidate;
    bool candidate_is_baseline =
        c.file == b.file && c.symbol == b.symbol && c.mode == b.mode && c.flavor == b.flavor;
    std::vector<std::pair<const char*, const model::Entry*>> entries = {
        {"reference", &task.reference}, {"baseline", &b}};
    if (!candidate_is_baseline) entries.push_back({"candidate", &c});
    for (const auto& [role, entry] : entries) {
      auto [seen, fresh] = done_.insert(key(*entry));
      (void)seen;
      if (!fresh) continue;
      engine::CompileResult r = compile(task, *entry);
      if (r.ok) {
        ++compiled;
        continue;
      }
      std::string what = describe(task, *entry);
      if (r.unavailable) {
        diags.report(entry->where, lang::Msg::entry_not_compiled, role, what, device_name_,
                     r.error);
        continue;
      }
      diags.report(entry->where, lang::Msg::entry_does_not_compile, role, what, device_name_,
                   r.error.empty() ? std::string("compile error") : r.error);
      std::string log = trimmed_log(r.log);
      if (!log.empty() && r.error.find(log) == std::string::npos)
        diags.note({}, lang::Msg::note_compiler_output, log);
    }
    return compiled;
  }

  const std::string& device_name() const { return device_name_; }

 private:
  engine::CompileResult compile(const model::Task& task, const model::Entry& entry) {
    engine::CompileRequest req = engine::compile_request(task, entry);
    try {
      if (entry.flavor != model::Flavor::hip) {
        if (!python_) python_ = runners_.device(engine::DeviceRole::trusted, options_);
        return python_->compile(req);
      }
      if (!hip_) hip_ = engine::make_isolated_device(device_name_, options_);
      return hip_->compile(req);
    } catch (const std::exception& e) {
      engine::CompileResult r;
      r.error = e.what();
      return r;
    }
  }

  static std::string key(const model::Entry& e) {
    return e.file.string() + "\n" + e.symbol + "\n" + std::to_string(int(e.mode)) + "\n" +
           std::to_string(int(e.flavor));
  }

  static std::string describe(const model::Task& task, const model::Entry& e) {
    static const char* flavors[] = {"hip", "torch", "triton"};
    static const char* modes[] = {"kernel", "launcher", "module", "function"};
    std::error_code ec;
    fs::path file = fs::relative(e.file, task.dir, ec);
    return fmt::format("{} {} {} in {}", flavors[int(e.flavor)], modes[int(e.mode)], e.symbol,
                       (ec || file.empty() ? e.file : file).string());
  }

  // The compiler's log, at most 40 lines.
  static std::string trimmed_log(const std::string& log) {
    std::string out;
    size_t lines = 0, at = 0;
    while (at < log.size() && lines < 40) {
      size_t end = log.find('\n', at);
      if (end == std::string::npos) end = log.size();
      out += log.substr(at, end - at) + "\n";
      at = end + 1;
      ++lines;
    }
    if (at < log.size()) out += "... (log truncated)\n";
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  engine::DeviceOptions options_;
  engine::RunnerPool runners_;
  std::string device_name_;
  std::unique_ptr<engine::Device> hip_;  // the HIP device: cpu, or a GPU
  std::unique_ptr<engine::Device> python_;
  std::set<std::string> done_;  // entries shared by tasks compile once
};

}  // namespace

std::vector<std::filesystem::path> kta_files_of(const std::vector<std::string>& args) {
  return expand_args(args);
}

void add_check_command(CLI::App& app, CliState& state) {
  auto* cmd =
      app.add_subcommand("check", "check .kta files (a folder means every .kta file below it)");
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("text");
  cmd->add_option("files", *files, "task, plan or module files, or folders")->required();
  auto compile = std::make_shared<bool>(false);
  auto device = std::make_shared<std::string>("cpu");
  cmd->add_option("--format", *format, "output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--compile", *compile,
                "also compile each task's reference, baseline and candidate as `kta eval` does");
  cmd->add_option("--device", *device, "device --compile uses: cpu (default), hip, hip:N or auto")
      ->check([](const std::string& d) {
        static const std::regex spec("cpu|hip|hip:[0-9]+|auto");
        return std::regex_match(d, spec)
                   ? std::string()
                   : "device must be cpu, hip, hip:N or auto, not '" + d + "'";
      });
  cmd->footer(
      "exit status: 0 clean (warnings allowed), 1 errors, 2 usage\n"
      "example: kta check tasks/ examples/quickstart.kta\n"
      "example: kta check --compile tasks/hip2hip");
  cmd->callback([&state, files, format, compile, device] {
    lang::SourceManager sources;
    lang::DiagnosticEngine diags(sources);
    size_t tasks = 0, plans = 0, checked = 0, entries = 0;
    auto paths = expand_args(*files);
    checked = paths.size();
    std::optional<EntryCompiler> compiler;
    std::set<std::pair<std::string, std::string>> compiled_tasks;
    auto compile_task = [&](const model::Task& t) {
      if (!*compile || !compiled_tasks.insert({t.file.string(), t.name}).second) return;
      if (!compiler) compiler.emplace(state, *device);
      entries += compiler->check(t, diags);
    };
    for (const auto& loaded : lang::load_files(paths, diags, state.load_options())) {
      if (!loaded) continue;
      tasks += loaded->tasks.size();
      plans += loaded->plans.size();
      for (const model::Task& t : loaded->tasks) compile_task(t);
      for (const model::Plan& p : loaded->plans)
        for (const model::Task& t : p.tasks) compile_task(t);
    }
    if (*format == "json") {
      nlohmann::json out;
      out["files"] = checked;
      out["errors"] = diags.error_count();
      out["warnings"] = diags.warning_count();
      out["diagnostics"] = diags.to_json();
      if (compiler) out["compiled"] = {{"entries", entries}, {"device", compiler->device_name()}};
      std::cout << out.dump(2) << '\n';
    } else {
      diags.print(std::cerr, state.color_stderr());
      if (diags.has_errors() || diags.warning_count())
        std::cerr << fmt::format("{} error{} and {} warning{} in {} file{}\n", diags.error_count(),
                                 diags.error_count() == 1 ? "" : "s", diags.warning_count(),
                                 diags.warning_count() == 1 ? "" : "s", checked,
                                 checked == 1 ? "" : "s");
      else
        std::cout << fmt::format(
            "ok: {} file{}, {} task{}, {} plan{}{}\n", checked, checked == 1 ? "" : "s", tasks,
            tasks == 1 ? "" : "s", plans, plans == 1 ? "" : "s",
            compiler ? fmt::format("; {} entr{} compiled on the {} device", entries,
                                   entries == 1 ? "y" : "ies", compiler->device_name())
                     : "");
    }
    state.exit_code = diags.has_errors() ? 1 : 0;
  });
}

}  // namespace kta::cli
