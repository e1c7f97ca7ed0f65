// kta: the command-line entry point. Subcommands live in engine/cli/cmd_*.cpp.
#include <cstdio>

#include "engine/cli/commands.h"
#include "kta_version.h"

int main(int argc, char** argv) {
  CLI::App app{"kta: a benchmark engine for AI coding agents that optimize GPU kernels", "kta"};
  app.set_version_flag("--version", std::string("kta ") + KTA_VERSION);
  app.require_subcommand(1);
  app.footer(
      "examples:\n"
      "  kta check tasks/hip2hip/elementwise/gelu/gelu.kta      check a task, print diagnostics\n"
      "  kta validate tasks/ --quick                prove each task is a sound benchmark\n"
      "  kta fmt --check tasks/**/*.kta             verify canonical formatting\n"
      "  kta plan --explain examples/quickstart.kta print what an evaluation would do\n"
      "  kta eval examples/quickstart.kta           run the plan on the cpu device\n"
      "  kta audit kernel.hip --task t.kta          find hard-coded shape assumptions\n"
      "  kta compare runs/a runs/b                  compare two runs task by task\n"
      "  kta eval plan.kta --shard 0/3 --secret-file s  one of 3 shards (for many machines)\n"
      "  kta merge runs/p/shard-*-of-3 -o runs/p/all join the shards into one run\n"
      "  kta agents check examples/agents.kta       is each agent's CLI installed?\n"
      "  kta new hip2hip my_kernel                  scaffold a task folder to fill in");

  kta::cli::CliState state;
  std::string settings_error;
  state.settings = kta::engine::settings_from(kta::engine::process_environment(), &settings_error);
  if (!settings_error.empty()) {
    std::fprintf(stderr, "kta: %s\n", settings_error.c_str());
    return 2;
  }
  kta::cli::add_check_command(app, state);
  kta::cli::add_fmt_command(app, state);
  kta::cli::add_plan_command(app, state);
  kta::cli::add_eval_command(app, state);
  kta::cli::add_audit_command(app, state);
  kta::cli::add_compare_command(app, state);
  kta::cli::add_agents_command(app, state);
  kta::cli::add_validate_command(app, state);
  kta::cli::add_new_command(app, state);
  kta::cli::add_merge_command(app, state);
  auto* help = app.add_subcommand("help", "show this help");
  help->callback([&] { std::fputs(app.help().c_str(), stdout); });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    // CLI11 returns 0 for --help/--version; usage errors are exit status 2 in kta.
    return rc == 0 ? 0 : 2;
  }
  return state.exit_code;
}
