// run_command: runs a helper program (the host compiler, `python -c`, nvcc) to its end under a
// wall-time limit and collects what it printed. No shell: argv goes to the program as it is.
// The helper leads a process group of its own; on a timeout the whole group is killed, and
// whatever it left running is killed when it exits.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kta::engine::ipc {

struct CommandOptions {
  double timeout_s = 30;                // 0 or less: no limit
  size_t output_cap = size_t(1) << 20;  // bytes of output kept; the rest is read and dropped
  std::optional<std::vector<std::string>> env;  // "NAME=value" each; none: this process's
  std::filesystem::path cwd;                    // empty: this process's
};

struct CommandResult {
  bool started = false;
  std::string error;   // why it did not start: "cannot run 'nvcc': No such file or directory"
  int exit_code = -1;  // -1 when it did not exit normally
  int signal = 0;      // the signal that ended it, 0 if none
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved, at most output_cap bytes
  bool truncated = false;
  double seconds = 0;  // wall time
  bool ok() const { return started && !timed_out && exit_code == 0; }
};

// Runs argv[0] (looked up on PATH unless it names a path) with `argv`.
CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options = {});

}  // namespace kta::engine::ipc
