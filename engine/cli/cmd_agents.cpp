// `kta agents check FILE`: for each agent a plan selects, whether its CLI is installed and which
// version, by running the agent's `check` command (e.g. `claude --version`) with a short
// timeout; whether the endpoint the plan points it at answers (a TCP connection); whether one of
// its key variables is set or, failing that, a login it copies exists. No task runs. Exit
// status: 0 when every agent is ready (or built in), 1 otherwise, 2 for usage and parse errors.
#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
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
  std::string endpoint = "-", key = "-";
  bool found = false, ready = true;
};

// Whether a TCP connection to the host and port of `url` (http://host[:port]/..., https by
// default on 443) opens within `timeout_s`; empty when it does, else why not.
std::string probe_endpoint(const std::string& url, double timeout_s) {
  std::string rest = url;
  std::string port = "80";
  if (auto scheme = rest.find("://"); scheme != std::string::npos) {
    if (rest.substr(0, scheme) == "https") port = "443";
    rest = rest.substr(scheme + 3);
  }
  rest = rest.substr(0, rest.find('/'));
  std::string host = rest;
  if (auto colon = rest.rfind(':'); colon != std::string::npos && rest.back() != ']') {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  addrinfo hints{}, *found = nullptr;
  hints.ai_socktype = SOCK_STREAM;
  if (int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
    return fmt::format("cannot resolve {}: {}", host, gai_strerror(rc));
  std::string why = "no address";
  for (addrinfo* a = found; a; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int rc = connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      rc = poll(&p, 1, static_cast<int>(timeout_s * 1000));
      int err = 0;
      socklen_t len = sizeof err;
      if (rc == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
        rc = 0;
      else
        why = rc == 0 ? fmt::format("no answer within {:g} s", timeout_s) : strerror(err);
      if (rc == 1) rc = -1;
    } else if (rc != 0) {
      why = strerror(errno);
    }
    close(fd);
    if (rc == 0) {
      freeaddrinfo(found);
      return {};
    }
  }
  freeaddrinfo(found);
  return fmt::format("{}:{}: {}", host, port, why);
}

// The endpoint and key columns: the plan's `endpoint` argument probed; the first of the
// declaration's key variables that is set, else the first login it copies that exists.
void check_configuration(const model::AgentUse& agent, double timeout_s,
                         const engine::Environment& environment, const fs::path& home,
                         AgentStatus& s) {
  auto endpoint = agent.args.find("endpoint");
  const auto* url =
      endpoint == agent.args.end() ? nullptr : std::get_if<std::string>(&endpoint->second);
  if (url && !url->empty()) {
    std::string why = probe_endpoint(*url, timeout_s);
    s.endpoint = why.empty() ? *url + " reachable" : *url + " unreachable: " + why;
    s.ready = s.ready && why.empty();
  }
  if (agent.decl.keys.empty()) return;
  std::string why;
  auto keys = engine::build_keys(agent, &why);
  if (!keys) {
    s.key = "error: " + why;
    s.ready = false;
    return;
  }
  std::vector<std::string> names;
  for (const auto& name : *keys) {
    auto it = environment.find(name);
    if (it != environment.end() && !it->second.empty()) {
      s.key = name + " set";
      return;
    }
    names.push_back(name);
  }
  std::error_code ec;
  for (const auto& login : agent.decl.logins)
    if (!home.empty() && fs::is_regular_file(home / login, ec)) {
      s.key = "login ~/" + login;
      return;
    }
  std::string unset;
  for (const auto& n : names) unset += (unset.empty() ? "" : ", ") + n;
  s.key = (unset.empty() ? "no key variable" : unset + " unset") + ", no login";
  s.ready = false;
}

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
      if (engine::agent_kind(a) == engine::AgentKind::command)
        check_configuration(a, timeout_s, state.settings.environment, state.settings.home, s);
      all = all && s.found && s.ready;
      rows.push_back({s.name, s.command.empty() ? "-" : s.command, s.status,
                      s.version.empty() ? "-" : s.version, s.endpoint, s.key});
    }
  }
  std::cout << engine::format_table({"agent", "check", "status", "version", "endpoint", "key"},
                                    rows);
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
