#include "engine/ipc/deadline.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace kta::engine::ipc {

namespace {

Clock::duration to_duration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

std::optional<double> cpu_stall_seconds() {
  std::ifstream f("/proc/pressure/cpu");
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("some ", 0) != 0) continue;
    size_t at = line.find("total=");
    if (at == std::string::npos) return std::nullopt;
    return std::strtod(line.c_str() + at + 6, nullptr) * 1e-6;
  }
  return std::nullopt;
}

Deadline Deadline::after(double seconds, StallClock stall) {
  Deadline d;
  d.seconds_ = seconds;
  d.start_ = Clock::now();
  d.at_ = seconds > 0 ? d.start_ + to_duration(seconds) : Clock::time_point::max();
  if (seconds > 0 && stall) {
    d.stall_ = std::move(stall);
    d.stall_at_start_ = d.stall_();
  }
  return d;
}

bool Deadline::passed() const {
  auto now = Clock::now();
  if (now < at_) return false;
  if (!stall_at_start_) return true;
  std::optional<double> stall = stall_();
  if (!stall) return true;
  double waited = std::clamp(*stall - *stall_at_start_, 0.0, (kMaxStretch - 1) * seconds_);
  if (waited <= stretched_) return true;
  stretched_ = waited;
  at_ = start_ + to_duration(seconds_ + stretched_);
  return now >= at_;
}

std::chrono::milliseconds Deadline::left(std::chrono::milliseconds cap) const {
  if (at_ == Clock::time_point::max()) return cap;
  auto l = std::chrono::ceil<std::chrono::milliseconds>(at_ - Clock::now());
  return std::max(std::chrono::milliseconds(0), std::min(l, cap));
}

std::string Deadline::timeout_text() const {
  std::string text = "timeout after " + seconds_text(seconds_) + " s";
  if (stretched_ >= 0.05)
    text += " (" + seconds_text(seconds_ + stretched_) +
            " s in all: the machine's CPUs were busy for " + seconds_text(stretched_) + " s of it)";
  return text;
}

}  // namespace kta::engine::ipc
