// `kta validate TASK|DIR|PLAN...`: whether each task is a sound benchmark (engine/validate), a
// table on the terminal or JSON for tools. Exit status: 0 when no check failed, 1 when one did
// (or a file did not load), 2 for usage errors.
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <map>
#include <regex>
#include <set>

#include "engine/cli/commands.h"
#include "engine/cli/run_devices.h"
#include "engine/plan/agent_use.h"
#include "engine/validate/validate.h"
#include "kta_version.h"
#include "lang/load.h"

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

struct ValidateArgs {
  std::vector<std::string> files;
  std::string device = "cpu";
  int warp_size = 0;
  std::string solutions;
  std::string format = "text";
  bool quick = false;
  bool no_cache = false;
  int seeds = 0;
};

// One task to validate, with the solutions folder it gets (--solutions, else its plan's replay
// folder).
struct Target {
  model::Task task;
  fs::path solutions;
};

std::vector<Target> load_targets(const ValidateArgs& a, const CliState& state, bool* ok) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  std::vector<Target> out;
  std::set<std::pair<std::string, std::string>> seen;
  auto add = [&](const model::Task& t, const fs::path& solutions) {
    if (!seen.insert({t.file.string(), t.name}).second) return;
    out.push_back({t, a.solutions.empty() ? solutions : fs::absolute(a.solutions)});
  };
  for (const auto& loaded : lang::load_files(kta_files_of(a.files), diags, state.load_options())) {
    if (!loaded) continue;
    for (const model::Task& t : loaded->tasks) add(t, {});
    for (const model::Plan& p : loaded->plans) {
      fs::path replay;
      for (const auto& agent : p.agents)
        if (engine::agent_kind(agent) == engine::AgentKind::replay)
          if (auto it = agent.args.find("dir"); it != agent.args.end())
            if (auto* s = std::get_if<std::string>(&it->second)) replay = *s;
      for (const model::Task& t : p.tasks) add(t, replay);
    }
  }
  diags.print(std::cerr, state.color_stderr());
  *ok = !diags.has_errors();
  return out;
}

std::string location(const std::string& file) {
  std::error_code ec;
  fs::path rel = fs::relative(file, fs::current_path(ec), ec);
  return (ec || rel.empty() || rel.string().starts_with("..")) ? file : rel.string();
}

void print_text(const engine::TaskValidation& v, std::ostream& out) {
  out << fmt::format("{} ({}, {}) on {}{}\n", v.task, location(v.file), v.kind, v.device,
                     v.cached ? ", cached" : fmt::format(", {:.1f} s", v.seconds));
  size_t width = 0;
  for (const auto& c : v.checks) width = std::max(width, c.name.size());
  for (const auto& c : v.checks) {
    out << fmt::format("  {}  {:<{}}  {}\n", engine::check_level_name(c.level), c.name, width,
                       c.reason);
    for (const auto& d : c.details) out << fmt::format("  {:<4}  {:<{}}  {}\n", "", "", width, d);
  }
}

// The closing line (text) or the whole JSON document; returns how many tasks failed.
int print_summary(const std::vector<engine::TaskValidation>& results, double seconds,
                  const std::string& format, const std::string& device) {
  int failed = 0, warned = 0, cached = 0;
  for (const auto& v : results) {
    failed += v.failed() ? 1 : 0;
    warned += v.count(engine::CheckLevel::warn) > 0 && !v.failed() ? 1 : 0;
    cached += v.cached ? 1 : 0;
  }
  if (format == "json") {
    engine::Json out = {{"device", device},
                        {"tasks", results.size()},
                        {"failed", failed},
                        {"cached", cached},
                        {"seconds", seconds}};
    out["validations"] = engine::Json::array();
    for (const auto& v : results) out["validations"].push_back(engine::to_json(v));
    std::cout << out.dump(2) << '\n';
  } else {
    std::string names;
    for (const auto& v : results)
      if (v.failed()) {
        std::string checks;
        for (const auto& c : v.checks)
          if (c.level == engine::CheckLevel::fail) checks += (checks.empty() ? "" : ", ") + c.name;
        names += fmt::format("{}{} ({})", names.empty() ? "" : "; ", v.task, checks);
      }
    std::cout << fmt::format("\n{} task{}: {} sound{}, {} failed{}{}; {:.1f} s{}\n", results.size(),
                             results.size() == 1 ? "" : "s", results.size() - failed,
                             warned ? fmt::format(" ({} with warnings)", warned) : "", failed,
                             names.empty() ? "" : ": ", names, seconds,
                             cached ? fmt::format(" ({} cached)", cached) : "");
  }
  return failed;
}

int run_validate(const ValidateArgs& a, const CliState& state) {
  bool loaded = true;
  std::vector<Target> targets = load_targets(a, state, &loaded);
  if (targets.empty()) {
    std::cerr << "kta validate: no task to validate\n";
    return 1;
  }
  std::string why;
  std::string device = engine::resolve_device_spec(a.device, &why, state.settings.hip_plugin);
  if (!why.empty()) std::cerr << "kta validate: device " << device << ": " << why << "\n";
  int warp = a.warp_size != 0 ? a.warp_size : device == "cpu" ? 64 : 0;

  engine::DeviceOptions device_options = engine::device_options(state.settings);
  if (warp != 0) device_options.warp_size = warp;
  RunDevices devices(state.settings, device, device_options, 0);
  // A scratch folder for the executor's runs, removed at the end.
  std::error_code ec;
  fs::path scratch =
      fs::temp_directory_path(ec) / fmt::format("kta-validate-{}-{}", ::getpid(), std::rand());
  fs::create_directories(scratch, ec);

  engine::ValidateOptions base;
  base.device = device;
  base.warp_size = warp;
  base.seeds = a.seeds;
  base.quick = a.quick;
  base.cache_dir = state.settings.cache_dir;
  base.version = KTA_VERSION;
  base.make_device = devices.factory();
  base.agents = agent_defaults(state.settings);

  std::vector<engine::TaskValidation> results;
  double seconds = 0;
  for (size_t i = 0; i < targets.size(); ++i) {
    engine::ValidateOptions o = base;
    o.solutions = targets[i].solutions;
    o.scratch = scratch / std::to_string(i);
    std::string key = engine::validation_key(targets[i].task, o);
    std::optional<engine::TaskValidation> v;
    if (!a.no_cache) v = engine::load_cached_validation(o, key);
    if (!v) {
      if (a.format == "text")
        std::cerr << fmt::format("validating {} ({}/{})...\n", targets[i].task.name, i + 1,
                                 targets.size());
      v = engine::validate_task(targets[i].task, o);
      engine::store_cached_validation(o, key, *v);
      seconds += v->seconds;
    }
    if (a.format == "text") print_text(*v, std::cout);
    results.push_back(std::move(*v));
  }
  fs::remove_all(scratch, ec);

  int failed = print_summary(results, seconds, a.format, engine::device_identity(device, warp));
  return failed > 0 || !loaded ? 1 : 0;
}

}  // namespace

void add_validate_command(CLI::App& app, CliState& state) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand(
      "validate", "check that tasks are sound benchmarks, on the device, before any agent runs");
  cmd->add_option("files", args->files, "task or plan files, or folders of them")->required();
  cmd->add_option("--device", args->device, "cpu (default) | hip | hip:N | auto")
      ->check([](const std::string& d) {
        static const std::regex spec("cpu|hip|hip:[0-9]+|auto");
        return std::regex_match(d, spec)
                   ? std::string()
                   : "device must be cpu, hip, hip:N or auto, not '" + d + "'";
      });
  cmd->add_option("--warp-size", args->warp_size, "warp size of the cpu device, 32 or 64")
      ->check(CLI::IsMember({32, 64}));
  cmd->add_option("--solutions", args->solutions,
                  "solutions as the replay agent reads them (DIR/<task>/<file>), checked "
                  "correct on visible and held-out points");
  cmd->add_option("--format", args->format, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--quick", args->quick, "short timing for the timing checks (CI)");
  cmd->add_option("--seeds", args->seeds, "seeds per point (default: the task's, at least 2)")
      ->check(CLI::Range(1, 100));
  cmd->add_flag("--no-cache", args->no_cache,
                "validate again even when the task's content is unchanged since the last time");
  cmd->footer(
      "exit status: 0 every task sound (warnings allowed), 1 a check failed, 2 usage\n"
      "checks: docs/validate.md\n"
      "example: kta validate tasks/ --quick\n"
      "example: kta validate examples/suite.kta --device hip --format json");
  cmd->callback([args, &state] {
    try {
      state.exit_code = run_validate(*args, state);
    } catch (const std::exception& e) {
      std::cerr << "kta validate: " << e.what() << "\n";
      state.exit_code = 1;
    }
  });
}

}  // namespace kta::cli
