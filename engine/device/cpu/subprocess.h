// Running a helper program (the host compiler) with a wall-time limit, collecting its output.
#pragma once

#include <string>
#include <vector>

namespace kta::engine::cpu {

struct ProcessResult {
  int exit_code = -1;  // -1 when it did not exit normally
  int signal = 0;      // the signal that ended it, 0 if none
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved
};

// Runs argv[0] (searched in PATH) with `argv`; kills it after `timeout_s` seconds.
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s);

}  // namespace kta::engine::cpu
