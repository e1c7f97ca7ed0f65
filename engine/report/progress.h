// Progress of a run as it happens: on a terminal one status line rewritten in place (task, step,
// elapsed, ETA) above the finished steps; plain lines when the output is not a terminal (CI
// logs). Held-out values never reach it: steps are named, points are not.
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

namespace kta::engine {

class Progress {
 public:
  virtual ~Progress() = default;
  virtual void step_started(const std::string& job, const std::string& step) = 0;
  // `resumed`: the step was found finished in the results store and not run again.
  virtual void step_finished(const std::string& job, const std::string& step,
                             const std::string& outcome, const std::string& reason, double seconds,
                             bool resumed) = 0;
  virtual void done() = 0;
};

// Writes to `out` (stderr in the CLI). `total_steps` feeds the ETA; `tty` picks the style.
std::unique_ptr<Progress> make_progress(std::FILE* out, bool tty, size_t total_steps);

}  // namespace kta::engine
