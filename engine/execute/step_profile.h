// Where a step's wall time went, by phase (drawing inputs, reference outputs, uploads, launches,
// downloads, comparison, worker start-up, ...). Scoped spans add to named totals; the step's
// payload carries them as "profile" (seconds per phase), so a slow step can be explained from
// results.db without a profiler. A span costs two steady-clock reads.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace kta::engine {

class StepProfile {
 public:
  class Span {
   public:
    Span(StepProfile& profile, const char* phase)
        : profile_(profile), phase_(phase), start_(std::chrono::steady_clock::now()) {}
    ~Span() {
      profile_.seconds_[phase_] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    Span(const Span&) = delete;
    Span& operator=(const Span&) = delete;

   private:
    StepProfile& profile_;
    const char* phase_;
    std::chrono::steady_clock::time_point start_;
  };

  [[nodiscard]] Span span(const char* phase) { return Span(*this, phase); }
  // A duration measured elsewhere (e.g. by the device, inside a worker).
  void add(const char* phase, double seconds) { seconds_[phase] += seconds; }
  void clear() { seconds_.clear(); }
  bool empty() const { return seconds_.empty(); }
  // Seconds per phase, rounded to microseconds (the step payload's "profile").
  std::map<std::string, double> seconds() const {
    std::map<std::string, double> out;
    for (const auto& [phase, s] : seconds_)
      out[phase] = static_cast<double>(static_cast<int64_t>(s * 1e6)) * 1e-6;
    return out;
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace kta::engine
