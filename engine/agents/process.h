// A child process group under a deadline: the way command agents run (an ipc::ChildProcess). The
// child starts in its own session (setsid), so everything it spawns shares its process group; on
// timeout the whole group gets SIGTERM, a grace period, then SIGKILL. Leftover members of the
// group are killed the same way when the leader exits. With a containment (containment.h) even a
// process that left the group (setsid, a double fork) goes with it.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/agents/containment.h"

namespace kta::engine {

struct ProcessSpec {
  std::vector<std::string> argv;           // argv[0] is looked up on PATH
  std::map<std::string, std::string> env;  // the whole environment of the child
  std::filesystem::path cwd;
  std::filesystem::path log;  // stdout and stderr, interleaved (appended)
  std::chrono::nanoseconds timeout{3600'000'000'000};
  std::chrono::nanoseconds grace{10'000'000'000};
  // How the whole process tree is kept together; unset: the process group only.
  std::optional<Containment> containment;
};

struct ProcessResult {
  bool started = false;
  std::string error;             // why it could not start (then `started` is false)
  std::optional<int> exit_code;  // normal exit
  std::optional<int> signal;     // killed by a signal
  bool timed_out = false;
  double timeout_seconds = 0;
  double wall_seconds = 0;
  std::string containment;  // which way held the process tree (containment_name), or "group"
  int swept = 0;            // processes outside the group killed when it ended
  // "exit 0", "exit 3", "killed by signal 9", "timeout after 3600 s", "not started: ..."
  std::string status() const;
};

ProcessResult run_process(const ProcessSpec& spec);

}  // namespace kta::engine
