#include "engine/ipc/command.h"

#include <poll.h>
#include <sys/wait.h>

#include "engine/ipc/child_process.h"

namespace kta::engine::ipc {
namespace {

// Reads the helper's output until it closes it or ends, or `deadline` passes (false then).
bool collect_output(ChildProcess& child, const Deadline& deadline, size_t cap, CommandResult* r) {
  for (;;) {
    if (deadline.passed()) return false;
    pollfd p{child.output_fd(), POLLIN, 0};
    int n = poll(&p, 1, int(deadline.left(std::chrono::milliseconds(50)).count()));
    if (n > 0 && !read_available(child.output_fd(), &r->output, cap, &r->truncated)) return true;
    // A helper that exited while something it started holds the pipe open is done too.
    if (n == 0 && child.try_wait()) return true;
  }
}

// Waits for the helper's status until `deadline` passes (nullopt then); the deadline may stretch
// while it waits.
std::optional<int> wait_until(ChildProcess& child, const Deadline& deadline) {
  while (!deadline.passed()) {
    auto until = std::min(deadline.at(), Clock::now() + std::chrono::milliseconds(200));
    if (auto status = child.wait(until)) return status;
  }
  return std::nullopt;
}

// What a grandchild left in the pipe after the group was killed.
void drain_output(ChildProcess& child, size_t cap, CommandResult* r) {
  for (int i = 0; i < 100; ++i) {
    pollfd p{child.output_fd(), POLLIN, 0};
    if (poll(&p, 1, 10) <= 0) continue;
    if (!read_available(child.output_fd(), &r->output, cap, &r->truncated)) return;
  }
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  CommandResult r;
  auto t0 = Clock::now();
  SpawnSpec spec;
  spec.argv = argv;
  spec.env = options.env;
  spec.cwd = options.cwd;
  spec.output = Output::to_pipe();
  ChildProcess child;
  if (auto failed = child.spawn(spec)) {
    r.error = failed->text(argv.empty() ? std::string() : argv[0]);
    return r;
  }
  r.started = true;
  Deadline deadline = Deadline::after(options.timeout_s);
  // The output closes as the helper exits (or just before): wait for its status too.
  bool ended = collect_output(child, deadline, options.output_cap, &r) &&
               wait_until(child, deadline).has_value();
  r.timed_out = !ended;
  int status = child.kill();  // the group: the whole of it on a timeout, leftovers otherwise
  drain_output(child, options.output_cap, &r);
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

}  // namespace kta::engine::ipc
