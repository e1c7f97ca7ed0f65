// The measurement protocol: warm up, sample rounds of A and B (and A' when calibrating), each
// round in a random order, stop on noise, budget or count, summarize. The device does the timing
// (flush + events or steady clock); the protocol only decides how many samples to take and in
// what order.
//
// Order: each round samples every series once, in an order drawn afresh per round. A fixed order
// lets whatever depends on the position in a round (the first sample on a worker after a pause,
// the one right after a sibling's on the same worker) bias one side of every pair the same way:
// on the cpu device a fixed A B A' read identical code 0.95-0.97x; drawn, such an effect is noise
// that the interval sees.
//
// Stopping rule, checked after each round once every series has `min_samples`: stop when every
// series' relative noise (stdev/mean) is <= `max_noise`, or when the paired-round speedup's 95%
// interval (A / B, and A / A' when calibrating: engine/measure/speedup.h) is within +-`max_noise`
// of its estimate; else when a series reached `max_samples`; else when the wall time since the
// first timed sample reached `budget_ns`. The budget never cuts a series below `min_samples` (a
// worker's wall-time limit guards against a kernel too slow for that); warmup samples are not
// kept and not charged to the budget.
//
// Why the interval as well: a series' spread does not shrink with more samples. A kernel of a few
// microseconds, or one called through Python, jitters by a few percent from sample to sample
// however long it runs, so the samples' noise alone held every such point to its whole budget
// (2 s of a GPU task's point); the speedup, the number the measurement is for, is known to 0.5%
// long before, since noise both sides share cancels in each round's ratio.
//
// Noise floor: a sample quantized by the timer (a 3.8 µs kernel under a 0.5 µs-ish event timer)
// can never reach 0.5% relative noise, however long it runs. When a series' stdev is at most one
// timer tick, the protocol treats its noise as satisfied: more samples cannot improve it.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <random>
#include <string>

#include "engine/measure/speedup.h"
#include "engine/measure/stats.h"
#include "lang/model.h"

namespace kta::engine {

// One timed sample as a device reports it. A failed sample aborts the measurement.
struct Sample {
  bool ok = true;
  double seconds = 0;  // on the device's timer (the cpu device: its process's CPU time)
  std::string error;
  double wall_seconds = 0;  // the same sample on a wall clock, where the timer is another one
};

// Granularity of the timer behind the samples; 0 = continuous (no noise floor).
struct TimerResolution {
  double tick_seconds = 0;
};

// Wall clock the budget is charged against; injectable so tests script time.
using Clock = std::function<double()>;  // seconds, monotonic
Clock steady_clock_seconds();

// Why a measurement stopped (for reports and logs).
struct StopState {
  bool stopped_on_noise = false;
  bool hit_budget = false;
  bool hit_max = false;
  bool failed = false;
  std::string stop_reason;  // "noise 0.31% <= 0.50% after 12 samples", "budget 2.0 s ...", error
};

// Baseline (A) and candidate (B) interleaved in one run, round by round: A B, or A B A' with a
// calibration series A' (the baseline again) whose ratio A / A' should read 1.
class InterleavedProtocol {
 public:
  struct Outcome : StopState {
    Stats a, b;
    std::optional<Stats> calibration;  // A' when asked for
    // Wall-clock twins of a and b (empty when the timer is a wall clock).
    Stats a_wall, b_wall;
    SpeedupInterval speedup;                           // paired rounds a_i / b_i; 0 when failed
    std::optional<SpeedupInterval> calibration_ratio;  // paired a_i / a'_i
  };

  // `order_seed` draws the rounds' orders (0: a random seed, what the engine uses; tests fix it).
  InterleavedProtocol(const model::Timing& timing, TimerResolution resolution,
                      Clock clock = steady_clock_seconds(), uint64_t order_seed = 0);
  // `begin_round`, when given, runs before the first warm-up round (counted: false) and before
  // every counted round (counted: true): fresh inputs for all sides; the other warm-up rounds
  // reuse the first one's. An exception from it fails the measurement with its text.
  Outcome run(const std::function<Sample()>& a, const std::function<Sample()>& b,
              const std::function<Sample()>* calibration = nullptr,
              const std::function<void(bool counted)>* begin_round = nullptr) const;

 private:
  model::Timing timing_;
  TimerResolution resolution_;
  Clock clock_;
  uint64_t order_seed_;
};

// The stopping rule's noise test for one series, floor included.
bool noise_satisfied(const Stats& s, double max_noise, TimerResolution resolution);

}  // namespace kta::engine
