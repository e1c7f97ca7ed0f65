// Paired statistics for comparing two runs task by task: exact sign and McNemar tests, and the
// paired percentile bootstrap. Tasks are the unit of resampling, so a statistic's interval
// reflects which tasks happened to be in the set, not timing noise inside one task.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "engine/measure/bootstrap.h"

namespace kta::engine {

// Two-sided exact binomial test of k successes in n trials at p = 1/2:
// min(1, 2 * P(X <= min(k, n - k))). n = 0 gives 1.
double binomial_two_sided_p(int n, int k);

// Sign test on paired differences (B - A): ties (|d| <= tie) are dropped before the test.
struct SignTest {
  int plus = 0, minus = 0, ties = 0;
  double p = 1;
};
SignTest sign_test(std::span<const double> differences, double tie = 0);

// Exact McNemar test on paired pass/fail outcomes: only the discordant pairs carry
// information, and under "no change" each is equally likely to go either way.
struct McNemar {
  int both = 0, a_only = 0, b_only = 0, neither = 0;  // a_only: passes in A, fails in B
  double p = 1;
};
// Counts of the four outcomes of the pairs; p from the discordant ones.
McNemar mcnemar_exact(int both, int a_only, int b_only, int neither);

// Percentile bootstrap over n paired units: `statistic` gets the indices of one resample (drawn
// with replacement, Philox keyed by `seed`, deterministic) and returns its value; the estimate
// is the statistic of the identity sample. Non-finite resample values (e.g. a ratio whose
// denominator is empty in that resample) are dropped; when fewer than half remain, or n = 0,
// the interval is NaN.
Interval paired_bootstrap(size_t n, const std::function<double(std::span<const size_t>)>& statistic,
                          uint64_t seed, int resamples = 10000, double confidence = 0.95);

// The common case: the mean of per-unit differences d_i = b_i - a_i.
Interval paired_mean_difference(std::span<const double> a, std::span<const double> b, uint64_t seed,
                                int resamples = 10000, double confidence = 0.95);

}  // namespace kta::engine
