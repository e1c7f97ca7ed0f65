// ChildChannel: a child process that serves requests on a Channel (a kta-worker, a python
// runner), its stdout and stderr in a log (a memfd) so that nothing it prints can corrupt the
// protocol. A failed request loses the child: past the deadline, or after a reply that is not
// JSON, its process group is killed; a child that died is reaped; either way the failure says
// why ("timeout after 3 s", "worker killed by signal 11 (SIGSEGV): <its last line>"). The owner
// starts a fresh one for its next request and replays its state into it through start's setup.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>

#include "engine/ipc/channel.h"
#include "engine/ipc/child_process.h"
#include "engine/ipc/unique_fd.h"

namespace kta::engine::ipc {

class ChildChannel {
 public:
  // `who` names the child in failures ("worker", "python runner"); `log_name` labels the log's
  // memfd (it shows in /proc/PID/fd).
  ChildChannel(std::string who, std::string log_name);
  ChildChannel(const ChildChannel&) = delete;
  ChildChannel& operator=(const ChildChannel&) = delete;

  // How the end of a child that died is told, from its waitpid status and its log's tail.
  // Default: "<who> exited with status 3: <last line of the log>".
  using Describe = std::function<std::string(int status, const std::string& log)>;
  void set_describe(Describe describe) { describe_ = std::move(describe); }

  // Starts a fresh child (stopping one that runs) with the channel's other end as its fd 3 and
  // an empty log as its stdout and stderr, then runs `setup` (the hello, state replayed into the
  // fresh child): a non-empty return fails the start and stops the child. Empty on success,
  // else why ("cannot start the worker 'kta-worker': No such file or directory").
  std::string start(SpawnSpec command, const std::function<std::string()>& setup = {});
  // Kills the child's process group and reaps it.
  void stop();

  bool running() const { return child_.running() && channel_.is_open(); }
  pid_t pid() const { return running() ? child_.pid() : -1; }
  uint64_t generation() const { return generation_; }  // bumped by every start
  const std::string& who() const { return who_; }

  // One request and its reply. On a failure the child is gone and the reply's error says why.
  Reply request(const json& message, double timeout_s, int fd = -1);

  std::string log_tail() const;
  // Empties the log, so that the tail read after a failure belongs to the request that failed.
  void clear_log();

 private:
  std::string why_ended();

  std::string who_, log_name_;
  Describe describe_;
  ChildProcess child_;
  Channel channel_;
  UniqueFd log_;
  uint64_t generation_ = 0;
};

}  // namespace kta::engine::ipc
