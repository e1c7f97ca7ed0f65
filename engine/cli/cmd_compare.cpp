// `kta compare RUN_A RUN_B`: pair two finished runs task by task and report per-task and
// run-level differences with paired bootstrap intervals and exact paired tests. Exit status: 0
// when the comparison was printed, 2 for usage and input errors (a missing or unreadable run,
// runs that cannot be paired), 1 for an internal failure.
#include <iostream>

#include "engine/cli/commands.h"
#include "engine/compare/compare_report.h"

namespace kta::cli {
namespace {

struct CompareArgs {
  std::string run_a, run_b;
  std::string format = "text";
  engine::CompareOptions options;
};

int run_compare(const CompareArgs& a) {
  engine::RunResults ra = engine::load_run(a.run_a);
  engine::RunResults rb = engine::load_run(a.run_b);
  engine::Comparison c = engine::compare_runs(std::move(ra), std::move(rb), a.options);
  if (a.format == "json")
    std::cout << engine::comparison_json_text(c);
  else if (a.format == "md")
    std::cout << engine::format_comparison_md(c);
  else
    std::cout << engine::format_comparison_text(c);
  return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, CliState& state) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd =
      app.add_subcommand("compare", "compare two runs task by task, with paired statistics");
  cmd->add_option("run_a", args->run_a, "run A: a run folder or its results.json")->required();
  cmd->add_option("run_b", args->run_b, "run B: a run folder or its results.json")->required();
  cmd->add_option("--format", args->format, "text (default), json or md")
      ->check(CLI::IsMember({"text", "json", "md"}));
  cmd->add_option("--agent-a", args->options.agent_a, "compare only this agent of run A");
  cmd->add_option("--agent-b", args->options.agent_b, "compare only this agent of run B");
  cmd->add_option("--resamples", args->options.resamples,
                  "paired bootstrap resamples (default 10000)")
      ->check(CLI::Range(1000, 10000000));
  cmd->add_option("--seed", args->options.seed,
                  "bootstrap seed (default fixed: same runs, same output)");
  cmd->footer("example: kta compare runs/baseline runs/claude --format md > compare.md");
  cmd->callback([args, &state] {
    try {
      state.exit_code = run_compare(*args);
    } catch (const engine::RunInputError& e) {
      std::cerr << "kta compare: " << e.what() << "\n";
      state.exit_code = 2;
    } catch (const std::exception& e) {
      std::cerr << "kta compare: internal error: " << e.what() << "\n";
      state.exit_code = 1;
    }
  });
}

}  // namespace kta::cli
