// A point in time a wait must end by, with the length it was set to, so that the failure names
// the limit the user gave ("timeout after 10 s"), not whatever was left of it.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>

#include "engine/ipc/child_status.h"

namespace kta::engine::ipc {

using Clock = std::chrono::steady_clock;

struct Deadline {
  Clock::time_point at;
  double seconds = 0;

  // `seconds` from now; a limit of 0 or less never passes.
  static Deadline after(double seconds) {
    Deadline d;
    d.seconds = seconds;
    d.at = seconds > 0 ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(seconds))
                       : Clock::time_point::max();
    return d;
  }
  bool passed() const { return Clock::now() >= at; }
  // What is left, at most `cap` (poll timeouts), never negative.
  std::chrono::milliseconds left(std::chrono::milliseconds cap) const {
    if (at == Clock::time_point::max()) return cap;
    auto l = std::chrono::ceil<std::chrono::milliseconds>(at - Clock::now());
    return std::max(std::chrono::milliseconds(0), std::min(l, cap));
  }
  std::string timeout_text() const { return "timeout after " + seconds_text(seconds) + " s"; }
};

}  // namespace kta::engine::ipc
