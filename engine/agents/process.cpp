#include "engine/agents/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/ipc/child_process.h"
#include "engine/ipc/unique_fd.h"

namespace kta::engine {

namespace {

using Clock = std::chrono::steady_clock;

ipc::SpawnSpec spawn_spec(const ProcessSpec& spec, int log_fd) {
  ipc::SpawnSpec s;
  s.argv = spec.argv;
  s.env.emplace();
  for (const auto& [k, v] : spec.env) s.env->push_back(k + "=" + v);
  s.cwd = spec.cwd;
  s.output = ipc::Output::to_fd(log_fd);
  s.new_session = true;
  return s;
}

// A program that could not be started ends as a shell's would: a line in the log, then exit
// status 126 (cannot enter the folder) or 127 (cannot run the program).
void fail_like_a_shell(const ProcessSpec& spec, const ipc::StartFailure& f, int log_fd,
                       ProcessResult* r) {
  bool cwd = f.step == ipc::StartFailure::Step::cwd;
  std::string line =
      cwd ? "kta: " + f.reason + "\n" : "kta: cannot run " + spec.argv[0] + ": " + f.reason + "\n";
  if (write(log_fd, line.data(), line.size()) < 0) {
    // The log is all there is to tell; nothing more to do.
  }
  r->started = true;
  r->exit_code = cwd ? 126 : 127;
}

}  // namespace

std::string ProcessResult::status() const {
  if (!started) return "not started: " + error;
  if (timed_out) return fmt::format("timeout after {:g} s", timeout_seconds);
  if (signal) return fmt::format("killed by signal {}", *signal);
  return fmt::format("exit {}", exit_code.value_or(-1));
}

ProcessResult run_process(const ProcessSpec& spec) {
  ProcessResult r;
  if (spec.argv.empty()) {
    r.error = "empty command";
    return r;
  }
  ipc::UniqueFd log(open(spec.log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (!log) {
    r.error = fmt::format("cannot open log {}: {}", spec.log.string(), strerror(errno));
    return r;
  }
  auto t0 = Clock::now();
  r.timeout_seconds = std::chrono::duration<double>(spec.timeout).count();
  std::optional<ContainedRun> contained;
  ProcessSpec run = spec;
  r.containment = "group";
  if (spec.containment) {
    contained.emplace(*spec.containment, spec.env);
    run.argv = contained->wrap(spec.argv);
    contained->add_environment(run.env);
    r.containment = containment_name(contained->kind());
  }
  ipc::ChildProcess child;
  if (auto failed = child.spawn(spawn_spec(run, log.get()))) {
    if (failed->step != ipc::StartFailure::Step::cwd &&
        failed->step != ipc::StartFailure::Step::program) {
      r.error = failed->text(spec.argv[0]);
      return r;
    }
    fail_like_a_shell(spec, *failed, log.get(), &r);
    return r;
  }
  r.started = true;
  std::optional<int> status = child.wait(t0 + spec.timeout);
  // On a timeout the whole group goes (TERM, the grace, KILL); after a normal exit, whatever it
  // left running goes too.
  if (!status) {
    r.timed_out = true;
    status = child.terminate(spec.grace);
  } else if (child.group_alive()) {
    child.terminate(std::chrono::nanoseconds(0));
  }
  if (contained) r.swept = contained->sweep();
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (WIFEXITED(*status)) r.exit_code = WEXITSTATUS(*status);
  if (WIFSIGNALED(*status)) r.signal = WTERMSIG(*status);
  return r;
}

}  // namespace kta::engine
