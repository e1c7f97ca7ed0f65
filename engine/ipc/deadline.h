// A point in time a wait must end by, with the length it was set to, so that the failure names
// the limit the user gave ("timeout after 10 s"), not whatever was left of it.
//
// Time spent waiting for a CPU does not count against the limit. On a busy machine (a laptop
// compiling, a CI box running two suites) a worker that is ready to run but not running is not
// hung, and killing it fails a correct candidate by the machine's load. So when the limit
// passes, it stretches by the CPU stall time the kernel accounted since it was set (Linux
// pressure stall information, /proc/pressure/cpu, "some": time during which a runnable task
// waited for a CPU), to at most kMaxStretch times its length: a hang that spins, sleeps or keeps
// the CPUs busy on purpose is still caught, later. Without PSI the limit is plain wall time.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "engine/ipc/child_status.h"

namespace kta::engine::ipc {

using Clock = std::chrono::steady_clock;

// Seconds of CPU stall accumulated on this machine since boot; nullopt where not readable.
using StallClock = std::function<std::optional<double>()>;
// /proc/pressure/cpu's "some total" (microseconds), in seconds.
std::optional<double> cpu_stall_seconds();

class Deadline {
 public:
  // A limit stretches to at most this many times its length on a busy machine.
  static constexpr double kMaxStretch = 10;

  // `seconds` from now; a limit of 0 or less never passes. `stall` is read when the limit is set
  // and when it passes (tests pass a scripted one).
  static Deadline after(double seconds, StallClock stall = cpu_stall_seconds);

  // True once the limit, stretched by the CPU stall since it was set, has passed.
  bool passed() const;
  // What is left of the current (possibly stretched) limit, at most `cap`, never negative.
  std::chrono::milliseconds left(std::chrono::milliseconds cap) const;
  // The end of the current limit (stretched as far as passed() found so far).
  Clock::time_point at() const { return at_; }
  double seconds() const { return seconds_; }
  // "timeout after 10 s", and how far it stretched on a busy machine.
  std::string timeout_text() const;

 private:
  Clock::time_point start_;
  mutable Clock::time_point at_;
  double seconds_ = 0;
  StallClock stall_;
  std::optional<double> stall_at_start_;
  mutable double stretched_ = 0;  // seconds added for CPU stall so far
};

}  // namespace kta::engine::ipc
