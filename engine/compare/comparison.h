// `kta compare`: two runs paired task by task, with run-level differences, paired bootstrap
// confidence intervals (tasks resampled with replacement) and exact paired tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/compare/pairing.h"
#include "engine/measure/paired.h"

namespace kta::engine {

struct CompareOptions {
  std::string agent_a, agent_b;  // empty: all agents of the run
  uint64_t seed = 0x6b746163;    // "ktac": fixed so the same runs always print the same intervals
  int resamples = 10000;
  double confidence = 0.95;
};

// A run-level figure for A and B over the paired units; `diff` is B - A with its paired
// bootstrap interval (for speedup: the ratio B / A, i.e. exp of the log difference). `n_a`,
// `n_b` and `n` count the units each figure is over.
struct PairedFigure {
  std::optional<double> a, b;
  Interval diff{kNoValue, kNoValue, kNoValue};
  int n_a = 0, n_b = 0, n = 0;
  static constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
  bool has_diff() const { return std::isfinite(diff.estimate); }
};

struct Comparison {
  RunResults run_a, run_b;  // tasks cleared: the pairing holds what is compared
  Pairing pairing;
  CompareOptions options;
  bool single_repeat = true;  // every paired unit has one repeat on each side

  PairedFigure correctness;  // rates over all paired units; diff over all
  // a, b: geomean over the units correct (and timed) in each run, as engine/score does for a
  // run; diff: the ratio B / A over units correct and timed in both (paired log speedups).
  PairedFigure speedup;
  // Held-out retention, sum retained / sum evaluated over the paired units (as engine/score);
  // diff: B - A, resamples where either side has nothing evaluated dropped; n: units with a
  // held-out verdict in both runs.
  PairedFigure retention;
  PairedFigure aka_score;  // mean AgentKernelArena task score
  McNemar correctness_test;
  SignTest speedup_test;  // on per-unit log(B) - log(A), units timed in both; exact ties dropped
};

// Throws RunInputError for runs that cannot be paired (see pair_runs) or share no unit.
Comparison compare_runs(RunResults a, RunResults b, const CompareOptions& options);

}  // namespace kta::engine
