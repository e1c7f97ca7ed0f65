// Speedups and their intervals from paired rounds. The protocol takes the baseline's sample (A)
// and the candidate's (B) back to back in each round, so whatever slows the machine down for a
// moment (another process, a clock change) slows both samples of a round alike: the round's
// ratio a_i / b_i cancels it, and the spread of those ratios is the measurement's noise.
//
// One shape: the log ratios' 20% trimmed mean (a few rounds hit by interference do not move it)
// with the Tukey-McLaughlin interval, mean +- t(0.975; h - 1) * s_w / ((1 - 2g/n) sqrt n), where
// g = floor(0.2 n) values are trimmed from each end, h = n - 2g remain and s_w is the standard
// deviation of the Winsorized log ratios (Wilcox, "Introduction to Robust Estimation", 3.6).
// Under ten rounds nothing is trimmed and it is the ordinary t interval of the mean log ratio.
//
// A task: the geometric mean over its shapes of the per-shape speedups. The shapes are fixed (not
// resampled: how different they are is no measurement error), so the interval of the mean log
// speedup combines the per-shape standard errors, SE^2 = sum(se_j^2) / S^2, with the
// Welch-Satterthwaite degrees of freedom. docs/eval.md works an example through.
#pragma once

#include <span>

namespace kta::engine {

struct SpeedupInterval {
  double estimate = 0, lo = 0, hi = 0;  // NaN lo/hi: too few rounds to tell (one round)
  double log_se = 0;                    // standard error of the log speedup
  double df = 0;                        // degrees of freedom behind the interval
  int rounds = 0;                       // paired rounds (per shape) or shapes (a task)
  bool has_interval() const;
  // The interval's half-width relative to the estimate, (hi - lo) / (2 * estimate).
  double relative_half_width() const;
};

// a[i] / b[i] over paired rounds (both spans the same length, every value > 0).
SpeedupInterval shape_speedup(std::span<const double> a, std::span<const double> b,
                              double confidence = 0.95);

// Geometric mean over shapes, the interval combining theirs. Shapes without an interval (one
// round) leave the task without one.
SpeedupInterval combined_speedup(std::span<const SpeedupInterval> shapes, double confidence = 0.95);

// How far apart, as a log ratio, two runs of the same code may be, from the ratio `same` measured
// between them (the baseline against itself): the far end of its interval, max(|log lo|,
// |log hi|); |log estimate| where there is no interval. 0 for a ratio that is not positive.
double offset_bound(const SpeedupInterval& same);

}  // namespace kta::engine
