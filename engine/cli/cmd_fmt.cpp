// `kta fmt [--check] FILE...`: rewrite .kta files in canonical form, or list those that differ.
#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/cli/commands.h"
#include "lang/format.h"

namespace kta::cli {

void add_fmt_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "fmt", "format .kta files in place (a folder means every .kta file below it)");
  auto files = std::make_shared<std::vector<std::string>>();
  auto check = std::make_shared<bool>(false);
  cmd->add_option("files", *files, "files or folders")->required();
  cmd->add_flag("--check", *check,
                "change nothing; show how each file that is not formatted would change (a "
                "unified diff) and exit 1");
  cmd->footer("example: kta fmt --check tasks/");
  cmd->callback([&state, files, check] {
    lang::SourceManager sources;
    lang::DiagnosticEngine diags(sources);
    int rc = 0;
    for (const auto& f : kta_files_of(*files)) {
      uint32_t id = sources.load(f);
      if (id == 0) {
        std::cerr << "kta: error: cannot read '" << f.string() << "'\n";
        rc = 1;
        continue;
      }
      auto formatted = lang::format_source(id, diags);
      if (!formatted) {
        rc = 1;
        continue;
      }
      if (*formatted == sources.file(id).text) continue;
      if (*check) {
        std::cout << f.string() << ": not formatted; `kta fmt " << f.string()
                  << "` rewrites it as follows:\n"
                  << lang::format_diff(f.string(), sources.file(id).text, *formatted);
        rc = 1;
        continue;
      }
      std::ofstream out(f, std::ios::binary | std::ios::trunc);
      out << *formatted;
      if (!out) {
        std::cerr << "kta: error: cannot write '" << f.string() << "'\n";
        rc = 1;
      }
    }
    diags.print(std::cerr);
    state.exit_code = rc;
  });
}

}  // namespace kta::cli
