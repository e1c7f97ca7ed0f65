// The kta subcommands. Each lives in its own file and registers itself on the CLI11 app; the
// callback it installs returns the process exit status through CliState.
#pragma once

#include <CLI/CLI.hpp>

namespace kta::cli {

// Run state shared by the subcommands of one kta invocation.
struct CliState {
  int exit_code = 0;
};

void add_check_command(CLI::App& app, CliState& state);
void add_fmt_command(CLI::App& app, CliState& state);
void add_plan_command(CLI::App& app, CliState& state);
void add_eval_command(CLI::App& app, CliState& state);
void add_audit_command(CLI::App& app, CliState& state);
void add_compare_command(CLI::App& app, CliState& state);
void add_agents_command(CLI::App& app, CliState& state);

}  // namespace kta::cli
