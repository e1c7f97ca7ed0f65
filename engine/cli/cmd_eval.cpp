// Placeholder until the `eval` command lands: registers the name so the CLI is complete.
#include <cstdio>

#include "engine/cli/commands.h"

namespace kta::cli {

void add_eval_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("eval", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([&state] {
    std::fputs("kta eval: not implemented in this build\n", stderr);
    state.exit_code = 2;
  });
}

}  // namespace kta::cli
