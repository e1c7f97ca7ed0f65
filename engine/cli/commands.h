// The kta subcommands. Each lives in its own file and registers itself on the CLI11 app; the
// callback it installs returns the process exit status through CliState.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <vector>

#include "engine/settings/settings.h"
#include "lang/load.h"

namespace kta::cli {

// Run state shared by the subcommands of one kta invocation: the environment's settings, read
// once in main, and the exit status.
struct CliState {
  engine::Settings settings;
  int exit_code = 0;

  // How .kta files are loaded: module folders and stdlib from the settings.
  lang::LoadOptions load_options() const;
  // Whether diagnostics on stderr get colors (a terminal, and no $NO_COLOR).
  bool color_stderr() const;
};

// The .kta files named on a command line; a folder stands for every .kta file below it
// (cmd_check.cpp).
std::vector<std::filesystem::path> kta_files_of(const std::vector<std::string>& args);

void add_check_command(CLI::App& app, CliState& state);
void add_fmt_command(CLI::App& app, CliState& state);
void add_plan_command(CLI::App& app, CliState& state);
void add_eval_command(CLI::App& app, CliState& state);
void add_audit_command(CLI::App& app, CliState& state);
void add_compare_command(CLI::App& app, CliState& state);
void add_agents_command(CLI::App& app, CliState& state);
void add_validate_command(CLI::App& app, CliState& state);
void add_new_command(CLI::App& app, CliState& state);
void add_merge_command(CLI::App& app, CliState& state);

}  // namespace kta::cli
