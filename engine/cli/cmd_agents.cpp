// `kta agents check FILE`: for each agent a plan selects, whether its CLI is installed and which
// version, by running the agent's `check` command (e.g. `claude --version`) with a short
// timeout. No task runs. Exit status: 0 when every agent is found (or built in), 1 otherwise,
// 2 for usage and parse errors.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "engine/agents/agent.h"
#include "engine/agents/command_line.h"
#include "engine/agents/process.h"
#include "engine/cli/commands.h"
#include "engine/report/export.h"
#include "lang/load.h"

namespace kta::cli {
namespace {

namespace fs = std::filesystem;

struct AgentStatus {
  std::string name, command, status, version;
  bool found = false;
};

std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  return "";
}

AgentStatus check_agent(const model::AgentUse& agent, double timeout_s,
                        const engine::Environment& environment) {
  AgentStatus s;
  s.name = engine::agent_label(agent);
  if (engine::agent_kind(agent) != engine::AgentKind::command) {
    s.status = "built in";
    s.found = true;
    return s;
  }
  std::string why;
  auto argv = engine::build_check(agent, &why);
  if (!argv) {
    s.status = "error: " + why;
    return s;
  }
  if (argv->empty()) {
    // Nothing to run: the command's program is at least looked up.
    s.command = agent.decl.command.empty() ? "" : agent.decl.command.front();
    s.status = "no check command";
    s.found = true;
    return s;
  }
  s.command = engine::shell_quote(*argv);
  char tmpl[] = "/tmp/kta-agents-check-XXXXXX";
  if (!mkdtemp(tmpl)) {
    s.status = "error: cannot make a temporary folder";
    return s;
  }
  engine::ProcessSpec p;
  p.argv = *argv;
  p.env = environment;
  p.cwd = tmpl;
  p.log = fs::path(tmpl) / "out.log";
  p.timeout = std::chrono::nanoseconds(static_cast<int64_t>(timeout_s * 1e9));
  p.grace = std::chrono::seconds(1);
  engine::ProcessResult r = engine::run_process(p);
  std::string out = first_line(p.log);
  if (r.started && r.exit_code == 0) {
    s.found = true;
    s.status = "found";
    s.version = out;
  } else if (r.exit_code == 127) {
    s.status = "not found";
  } else {
    s.status = "check failed: " + r.status();
    s.version = out;
  }
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  return s;
}

int run_agents_check(const std::string& file, double timeout_s, const CliState& state) {
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(file, diags, state.load_options());
  diags.print(std::cerr, state.color_stderr());
  if (!loaded) return 2;
  if (loaded->plans.empty()) {
    std::cerr << "kta agents check: " << file << " holds no plan\n";
    return 2;
  }
  std::vector<std::vector<std::string>> rows;
  bool all = true;
  for (const auto& plan : loaded->plans) {
    std::vector<model::AgentUse> agents = plan.agents;
    if (agents.empty()) agents.push_back(engine::baseline_agent());
    for (const auto& a : agents) {
      AgentStatus s = check_agent(a, timeout_s, state.settings.environment);
      all = all && s.found;
      rows.push_back({s.name, s.command.empty() ? "-" : s.command, s.status,
                      s.version.empty() ? "-" : s.version});
    }
  }
  std::cout << engine::format_table({"agent", "check", "status", "version"}, rows);
  return all ? 0 : 1;
}

}  // namespace

void add_agents_command(CLI::App& app, CliState& state) {
  auto* agents = app.add_subcommand("agents", "inspect the agents a plan uses");
  agents->require_subcommand(1);
  auto* check = agents->add_subcommand("check", "is each agent's CLI installed, and which version");
  auto file = std::make_shared<std::string>();
  auto timeout = std::make_shared<double>(20);
  check->add_option("file", *file, "a plan .kta file")->required();
  check->add_option("--timeout", *timeout, "seconds each check command may run (default 20)")
      ->check(CLI::PositiveNumber);
  check->callback([file, timeout, &state] {
    try {
      state.exit_code = run_agents_check(*file, *timeout, state);
    } catch (const std::exception& e) {
      std::cerr << "kta agents check: " << e.what() << "\n";
      state.exit_code = 2;
    }
  });
}

}  // namespace kta::cli
