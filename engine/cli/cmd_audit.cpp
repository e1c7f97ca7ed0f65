// kta audit: find hard-coded shape assumptions in HIP kernels (analyzers/audit.h).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/commands.h"

#if KTA_HAVE_ANALYZERS
#include "analyzers/audit.h"
#include "analyzers/shapes.h"
#include "lang/load.h"
#endif

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

struct AuditArgs {
  std::vector<std::string> files;
  std::string task;
  std::vector<std::string> shapes;
  std::string baseline;
  bool all = false;
  std::string format = "text";
  std::string fail_on = "error";
  unsigned jobs = 0;
  std::vector<std::string> include_dirs;
  bool list_checks = false;
};

#if KTA_HAVE_ANALYZERS
// Usage problems are exit status 2, with the reason on stderr.
int usage(const std::string& message) {
  std::fprintf(stderr, "kta audit: error: %s\n", message.c_str());
  return 2;
}

// Shape values from the task's visible grid, and its baseline entry when it is a HIP file.
int load_task(const AuditArgs& args, const CliState& state, analyzers::AuditOptions& options) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(args.task, diags, state.load_options());
  if (!loaded) {
    diags.print(std::cerr);
    return usage("cannot load task '" + args.task + "'");
  }
  if (loaded->tasks.empty()) return usage("'" + args.task + "' declares no task");
  for (const model::Task& task : loaded->tasks) {
    for (const model::ShapePoint& point : task.visible)
      for (const auto& [name, value] : point) options.shapes[name].push_back(value);
    if (!options.baseline && args.baseline.empty() && task.baseline.flavor == model::Flavor::hip &&
        !task.baseline.file.empty())
      options.baseline = task.baseline.file;
  }
  return 0;
}

int run_audit(const AuditArgs& args, const CliState& state) {
  if (args.list_checks) {
    for (const auto& c : analyzers::check_catalog())
      std::printf("%-28s %-8s %s\n", c.name.c_str(), c.severity.c_str(), c.summary.c_str());
    return 0;
  }
  if (args.files.empty())
    return usage("no input files; usage: kta audit FILE... [--task T.kta] [--shape N=4096]");
  analyzers::AuditOptions options;
  for (const std::string& spec : args.shapes)
    if (std::string err = analyzers::parse_shape_spec(spec, options.shapes); !err.empty())
      return usage(err);
  if (!args.baseline.empty()) options.baseline = fs::path(args.baseline);
  if (!args.task.empty())
    if (int rc = load_task(args, state, options)) return rc;
  std::error_code ec;
  if (options.baseline && !fs::is_regular_file(*options.baseline, ec))
    return usage("baseline '" + options.baseline->string() + "' is not a readable file");
  std::vector<fs::path> files;
  for (const std::string& f : args.files) {
    if (!fs::is_regular_file(f, ec)) return usage("'" + f + "' is not a readable file");
    files.emplace_back(f);
  }
  options.all = args.all;
  options.jobs = args.jobs;
  for (const std::string& d : args.include_dirs) options.include_dirs.emplace_back(d);

  std::vector<analyzers::FileAudit> audits;
  try {
    audits = analyzers::audit_files(files, options);
  } catch (const std::exception& e) {
    return usage(e.what());
  }
  std::string out = args.format == "json"    ? analyzers::format_json(audits)
                    : args.format == "sarif" ? analyzers::format_sarif(audits)
                                             : analyzers::format_text(audits);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return analyzers::reaches(audits, args.fail_on) ? 1 : 0;
}
#else
int run_audit(const AuditArgs&, const CliState&) {
  std::fputs(
      "kta audit: this kta was built without the analyzers (KTA_BUILD_ANALYZERS=OFF or "
      "clang-16 development packages missing)\n",
      stderr);
  return 2;
}
#endif

}  // namespace

void add_audit_command(CLI::App& app, CliState& state) {
  auto args = std::make_shared<AuditArgs>();
  auto* cmd = app.add_subcommand("audit", "find hard-coded shape assumptions in HIP kernels");
  cmd->add_option("files", args->files, "HIP kernel or launcher files to audit");
  cmd->add_option("--task", args->task,
                  "take shape values (visible grid) and baseline from this .kta task");
  // One value per occurrence, so `--shape N=4096 k.hip` leaves k.hip to the file list.
  cmd->add_option("--shape", args->shapes,
                  "visible shape values, e.g. N=4096,M=128 or N=4096|8192 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--baseline", args->baseline,
                  "report only findings not also present in this file");
  cmd->add_flag("--all", args->all, "report every finding, ignoring the baseline");
  cmd->add_option("--format", args->format, "output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  cmd->add_option("--fail-on", args->fail_on, "exit 1 when a finding reaches this level")
      ->check(CLI::IsMember({"warning", "error"}));
  cmd->add_option("-j,--jobs", args->jobs, "files audited in parallel (default: one per core)");
  cmd->add_option("-I,--include", args->include_dirs, "extra include folder for the audited files")
      ->allow_extra_args(false);
  cmd->add_flag("--list-checks", args->list_checks, "list the checks and exit");
  cmd->footer(
      "exit status: 0 nothing reaches --fail-on, 1 something does, 2 usage error\n"
      "suppress one finding with: // kta-audit: allow(check-name): reason\n"
      "docs: docs/analyzers/README.md");
  cmd->callback([args, &state] { state.exit_code = run_audit(*args, state); });
}

}  // namespace kta::cli
