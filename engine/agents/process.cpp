#include "engine/agents/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

extern char** environ;

namespace kta::engine {

namespace {

using Clock = std::chrono::steady_clock;

// Polls for the leader's exit until `until`; true when it was reaped.
bool wait_until(pid_t pid, Clock::time_point until, int* status) {
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // already gone
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// True while any process of group `pgid` is alive (zombies of reparented members count as gone).
bool group_alive(pid_t pgid) { return kill(-pgid, 0) == 0; }

// TERM to the group, up to `grace` for it to go, then KILL. The leader is reaped if still ours.
void stop_group(pid_t pgid, std::chrono::nanoseconds grace, bool leader_reaped, int* status) {
  kill(-pgid, SIGTERM);
  auto until = Clock::now() + grace;
  bool reaped = leader_reaped;
  while (Clock::now() < until) {
    if (!reaped) reaped = wait_until(pgid, Clock::now(), status);
    if (reaped && !group_alive(pgid)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-pgid, SIGKILL);
  if (!reaped) waitpid(pgid, status, 0);
}

[[noreturn]] void exec_child(const ProcessSpec& spec, int log_fd, const std::vector<char*>& argv,
                             const std::vector<char*>& envp) {
  setsid();
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  dup2(log_fd, 1);
  dup2(log_fd, 2);
  if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
    dprintf(2, "kta: cannot enter %s: %s\n", spec.cwd.c_str(), strerror(errno));
    _exit(126);
  }
  // execvpe searches the child's PATH, as a shell would.
  execvpe(argv[0], argv.data(), envp.data());
  dprintf(2, "kta: cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

}  // namespace

std::string ProcessResult::status() const {
  if (!started) return "not started: " + error;
  if (timed_out) return fmt::format("timeout after {:g} s", timeout_seconds);
  if (signal) return fmt::format("killed by signal {}", *signal);
  return fmt::format("exit {}", exit_code.value_or(-1));
}

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

ProcessResult run_process(const ProcessSpec& spec) {
  ProcessResult r;
  if (spec.argv.empty()) {
    r.error = "empty command";
    return r;
  }
  int log_fd = open(spec.log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    r.error = fmt::format("cannot open log {}: {}", spec.log.string(), strerror(errno));
    return r;
  }
  // Built before fork: the child may only call async-signal-safe functions.
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : spec.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  auto t0 = Clock::now();
  pid_t pid = fork();
  if (pid < 0) {
    r.error = fmt::format("fork failed: {}", strerror(errno));
    close(log_fd);
    return r;
  }
  if (pid == 0) exec_child(spec, log_fd, argv, envp);
  close(log_fd);
  r.started = true;
  int status = 0;
  bool reaped = wait_until(pid, t0 + spec.timeout, &status);
  if (!reaped) r.timed_out = true;
  r.timeout_seconds = std::chrono::duration<double>(spec.timeout).count();
  // On a timeout the whole group goes; after a normal exit, whatever it left running goes too.
  if (!reaped || group_alive(pid))
    stop_group(pid, r.timed_out ? spec.grace : std::chrono::nanoseconds(0), reaped, &status);
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace kta::engine
