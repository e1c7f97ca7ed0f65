// `kta check FILE...`: parse, import and check .kta files; clang-style diagnostics or JSON.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "engine/cli/commands.h"
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
  cmd->add_option("--format", *format, "output format")->check(CLI::IsMember({"text", "json"}));
  cmd->footer(
      "exit status: 0 clean (warnings allowed), 1 errors, 2 usage\n"
      "example: kta check tasks/ examples/quickstart.kta");
  cmd->callback([&state, files, format] {
    lang::SourceManager sources;
    lang::DiagnosticEngine diags(sources);
    size_t tasks = 0, plans = 0, checked = 0;
    auto paths = expand_args(*files);
    checked = paths.size();
    for (const auto& loaded : lang::load_files(paths, diags, state.load_options())) {
      if (!loaded) continue;
      tasks += loaded->tasks.size();
      plans += loaded->plans.size();
    }
    if (*format == "json") {
      nlohmann::json out;
      out["files"] = checked;
      out["errors"] = diags.error_count();
      out["warnings"] = diags.warning_count();
      out["diagnostics"] = diags.to_json();
      std::cout << out.dump(2) << '\n';
    } else {
      diags.print(std::cerr, state.color_stderr());
      if (diags.has_errors() || diags.warning_count())
        std::cerr << fmt::format("{} error{} and {} warning{} in {} file{}\n", diags.error_count(),
                                 diags.error_count() == 1 ? "" : "s", diags.warning_count(),
                                 diags.warning_count() == 1 ? "" : "s", checked,
                                 checked == 1 ? "" : "s");
      else
        std::cout << fmt::format("ok: {} file{}, {} task{}, {} plan{}\n", checked,
                                 checked == 1 ? "" : "s", tasks, tasks == 1 ? "" : "s", plans,
                                 plans == 1 ? "" : "s");
    }
    state.exit_code = diags.has_errors() ? 1 : 0;
  });
}

}  // namespace kta::cli
