#include "engine/measure/protocol.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace kta::engine {

Clock steady_clock_seconds() {
  return [] {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
  };
}

bool noise_satisfied(const Stats& s, double max_noise, TimerResolution resolution) {
  if (s.n < 2) return false;
  if (s.noise <= max_noise) return true;
  // Quantized by the timer: spread within one tick cannot shrink with more samples.
  return resolution.tick_seconds > 0 && s.stdev <= resolution.tick_seconds;
}

namespace {

// A growing series of samples of one implementation.
struct Series {
  const char* name;
  const std::function<Sample()>& take;
  std::vector<double> seconds, wall;
  Stats stats() const { return summarize(seconds); }
};

// Samples once, or returns the error that aborts the measurement.
std::optional<std::string> sample_into(Series& s, bool keep) {
  Sample x = s.take();
  if (!x.ok) return fmt::format("{} sample failed: {}", s.name, x.error);
  if (!std::isfinite(x.seconds) || x.seconds < 0)
    return fmt::format("{} sample returned an invalid time ({})", s.name, x.seconds);
  if (keep) {
    s.seconds.push_back(x.seconds);
    if (x.wall_seconds > 0) s.wall.push_back(x.wall_seconds);
  }
  return std::nullopt;
}

StopState failed(std::string why) {
  StopState st;
  st.failed = true;
  st.stop_reason = std::move(why);
  return st;
}

// What a measurement needs besides its series: the round hook and the order's randomness.
//
// Counted rounds take their orders from balanced blocks: each block holds every order of the
// series once (2 for A B, 6 for A B C), shuffled. Within a block every series takes every place
// equally often and follows every other series equally often, so an effect of place or
// predecessor (the first sample after the round's uploads, the first launch after another
// process used the GPU) falls on each series alike after every whole block. Orders drawn
// independently per round balance such effects only on average: over the 10 rounds of a quick
// point B could follow A in 6 rounds and C in 2. (A Triton baseline against itself read 0.984x
// [0.971, 0.997] through two runners on an H100; whether order effects caused it was not
// established, the balance removes them as a cause.) Warm-up rounds draw their orders apart from
// the blocks.
struct Rounds {
  const std::function<void(bool counted)>* begin = nullptr;
  std::mt19937_64 order;
  std::vector<std::vector<size_t>> block;  // the current block's orders still to run

  std::vector<size_t> next(size_t count, bool counted) {
    std::vector<size_t> o(count);
    std::iota(o.begin(), o.end(), size_t{0});
    if (!counted) {
      std::shuffle(o.begin(), o.end(), order);
      return o;
    }
    if (block.empty()) {
      do block.push_back(o);
      while (std::next_permutation(o.begin(), o.end()));
      std::shuffle(block.begin(), block.end(), order);
    }
    o = std::move(block.back());
    block.pop_back();
    return o;
  }
};

// One sample of each series, in the round's order, after the round's hook when `begin` is set.
std::optional<std::string> sample_round(const std::vector<Series*>& series, bool keep, bool begin,
                                        Rounds& rounds) {
  if (begin && rounds.begin != nullptr) {
    try {
      (*rounds.begin)(keep);
    } catch (const std::exception& e) {
      return fmt::format("round setup failed: {}", e.what());
    }
  }
  for (size_t i : rounds.next(series.size(), keep))
    if (auto err = sample_into(*series[i], keep)) return err;
  return std::nullopt;
}

// The widest relative half-width of the paired-round intervals the measurement reports: A / B,
// and A / A' when calibrating. Infinite before there are two rounds.
double ratio_width(const std::vector<Series*>& series) {
  double widest = 0;
  for (size_t k = 1; k < series.size(); ++k) {
    SpeedupInterval r = shape_speedup(series[0]->seconds, series[k]->seconds);
    double w = r.relative_half_width();
    widest = std::max(widest, std::isfinite(w) ? w : INFINITY);
  }
  return widest;
}

// The stopping rule after `n` samples per series and `elapsed` seconds: noise first, then the
// sample cap, then the budget. nullopt: keep sampling.
std::optional<StopState> stopping_rule(const std::vector<Series*>& series,
                                       const model::Timing& timing, TimerResolution resolution,
                                       int n, int max_samples, double elapsed) {
  bool quiet = true;
  double worst = 0;
  for (Series* s : series) {
    Stats x = s->stats();
    quiet = quiet && noise_satisfied(x, timing.max_noise, resolution);
    worst = std::max(worst, x.noise);
  }
  double budget = static_cast<double>(timing.budget_ns) * 1e-9;
  StopState st;
  if (quiet) {
    st.stopped_on_noise = true;
    st.stop_reason =
        fmt::format("noise {:.2f}% <= {:.2f}% (or within one timer tick) after {} samples",
                    worst * 100, timing.max_noise * 100, n);
  } else if (double width = ratio_width(series); width <= timing.max_noise) {
    st.stopped_on_noise = true;
    st.stop_reason = fmt::format(
        "speedup interval +-{:.2f}% <= {:.2f}% after {} rounds (samples' noise {:.2f}%)",
        width * 100, timing.max_noise * 100, n, worst * 100);
  } else if (n >= max_samples) {
    st.hit_max = true;
    st.stop_reason = fmt::format("max samples {} reached, noise {:.2f}% > {:.2f}%", n, worst * 100,
                                 timing.max_noise * 100);
  } else if (elapsed >= budget) {
    st.hit_budget = true;
    st.stop_reason =
        fmt::format("time budget {:.3g} s spent after {} samples, noise {:.2f}% > {:.2f}%", budget,
                    n, worst * 100, timing.max_noise * 100);
  } else {
    return std::nullopt;
  }
  return st;
}

// The shared body of both protocols: warm up, then sample rounds until the stopping rule holds.
// Warm-up rounds bring clocks and caches up on the first round's inputs: drawing and uploading
// fresh inputs for each of them (25 rounds of a batch preset) cost more than the sampling.
StopState measure(const std::vector<Series*>& series, const model::Timing& timing,
                  TimerResolution resolution, const Clock& clock, Rounds& rounds) {
  for (int w = 0; w < timing.warmup; ++w)
    if (auto err = sample_round(series, false, w == 0, rounds)) return failed("warmup: " + *err);

  int min_samples = std::max(1, timing.min_samples);
  int max_samples = std::max(min_samples, timing.max_samples);
  double start = clock();
  for (int n = 1;; ++n) {
    if (auto err = sample_round(series, true, true, rounds)) return failed(*err);
    if (n < min_samples) continue;
    if (auto stop = stopping_rule(series, timing, resolution, n, max_samples, clock() - start))
      return *stop;
  }
}

}  // namespace

InterleavedProtocol::InterleavedProtocol(const model::Timing& timing, TimerResolution resolution,
                                         Clock clock, uint64_t order_seed)
    : timing_(timing),
      resolution_(resolution),
      clock_(std::move(clock)),
      order_seed_(order_seed != 0 ? order_seed : std::random_device{}()) {}

InterleavedProtocol::Outcome InterleavedProtocol::run(
    const std::function<Sample()>& a, const std::function<Sample()>& b,
    const std::function<Sample()>* calibration,
    const std::function<void(bool counted)>* begin_round) const {
  Series base{"baseline", a, {}, {}}, cand{"candidate", b, {}, {}};
  std::optional<Series> again;
  std::vector<Series*> series = {&base, &cand};
  if (calibration) series.push_back(&again.emplace(Series{"baseline again", *calibration, {}, {}}));
  Outcome out;
  Rounds rounds{begin_round, std::mt19937_64(order_seed_)};
  static_cast<StopState&>(out) = measure(series, timing_, resolution_, clock_, rounds);
  out.a = base.stats();
  out.b = cand.stats();
  if (base.wall.size() == base.seconds.size()) out.a_wall = summarize(base.wall);
  if (cand.wall.size() == cand.seconds.size()) out.b_wall = summarize(cand.wall);
  if (again) out.calibration = again->stats();
  if (out.failed) return out;
  out.speedup = shape_speedup(base.seconds, cand.seconds);
  if (again) out.calibration_ratio = shape_speedup(base.seconds, again->seconds);
  return out;
}

}  // namespace kta::engine
