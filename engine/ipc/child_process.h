// ChildProcess: one child of the engine (a kta-worker, a python runner, a compiler, an agent, an
// analyzer forked per file), always the leader of a process group of its own, so that whatever
// it starts goes with it: kill() and terminate() signal the whole group, and the destructor
// kills and reaps, so no child outlives its owner and none is left a zombie.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/ipc/deadline.h"
#include "engine/ipc/unique_fd.h"

namespace kta::engine::ipc {

// Where a child's stdout and stderr go, interleaved (its stdin is always /dev/null).
struct Output {
  enum class To { discard, inherit, fd, file, pipe };
  To to = To::discard;
  int fd = -1;                 // To::fd: a descriptor of this process (a memfd log), not taken
  std::filesystem::path path;  // To::file: appended to, created when missing

  static Output discard() { return {}; }
  static Output inherit() { return {To::inherit}; }
  static Output to_fd(int fd) { return {To::fd, fd}; }
  static Output to_file(std::filesystem::path p) { return {To::file, -1, std::move(p)}; }
  // A pipe whose read end is ChildProcess::output_fd().
  static Output to_pipe() { return {To::pipe}; }
};

// A program to start.
struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0]: a path, or a name looked up on the child's PATH
  std::optional<std::vector<std::string>> env;  // "NAME=value" each; none: this process's
  std::filesystem::path cwd;                    // empty: this process's
  std::vector<std::pair<int, int>> fds;  // {descriptor here, number in the child}: {socket, 3}
  Output output;
  bool new_session = false;  // a session of its own too (setsid), as agents get
};

// Why a start failed: the step and the system's reason ("No such file or directory").
struct StartFailure {
  enum class Step { output, cwd, program, system };
  Step step = Step::system;
  std::string reason;
  // "cannot open log x: ...", "cannot enter d: ...", "cannot run 'p': ...", "fork failed: ..."
  std::string text(const std::string& program) const;
};

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess() { kill(); }
  ChildProcess(ChildProcess&& o) noexcept;
  ChildProcess& operator=(ChildProcess&& o) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts `spec` with posix_spawn (any child this object held is killed first).
  std::optional<StartFailure> spawn(const SpawnSpec& spec);
  // Forks a child that runs `body(out_fd)` and exits with what it returns (a body that throws
  // ends it like an uncaught exception: std::terminate); `out_fd` is the write end of a pipe
  // whose read end is output_fd().
  std::optional<StartFailure> fork(const std::function<int(int out_fd)>& body);

  pid_t pid() const { return pid_; }  // also the process group's id; -1 before a start
  bool running() const { return pid_ > 0 && !status_; }  // started and not reaped
  int output_fd() const { return output_.get(); }        // Output::to_pipe and fork; else -1
  std::optional<int> status() const { return status_; }  // the waitpid status, once reaped

  // The status when the child has ended (reaping it), else nothing; does not block.
  std::optional<int> try_wait();
  // Waits until the child ends or `until` passes.
  std::optional<int> wait(Clock::time_point until);
  int wait();
  // SIGKILL to the whole group (also to members left after the leader ended); reaps the leader.
  // Returns its status (0 when nothing was started).
  int kill();
  // SIGTERM to the group, up to `grace` for the leader and the group to go, then kill().
  int terminate(std::chrono::nanoseconds grace);
  // True while some member of the group lives (the leader included until it is reaped).
  bool group_alive() const;
  // "<who> exited with status 3", "<who> killed by signal 9 (SIGKILL)" (child_status.h).
  std::string ended(const std::string& who) const;

 private:
  void adopt(pid_t pid, UniqueFd output);
  void reset();  // kills what runs; back to no child

  pid_t pid_ = -1;
  std::optional<int> status_;
  UniqueFd output_;
};

// Reads what `fd` holds now into *out, keeping at most `cap` bytes in *out (the rest is read
// and dropped; *truncated tells). False at end of file or on an error.
bool read_available(int fd, std::string* out, size_t cap, bool* truncated = nullptr);

}  // namespace kta::engine::ipc
