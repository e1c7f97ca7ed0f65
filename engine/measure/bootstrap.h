// Geometric means and their bootstrap confidence intervals (task speedup over shapes).
#pragma once

#include <cstdint>
#include <span>

namespace kta::engine {

struct Interval {
  double estimate = 0, lo = 0, hi = 0;
};

// exp(mean(log x)); NaN when empty or any x <= 0 / non-finite.
double geomean(std::span<const double> values);

// Percentile bootstrap of the geometric mean: `resamples` resamples with replacement drawn from
// Philox keyed by `seed` (deterministic), interval = [(1-c)/2, (1+c)/2] quantiles. A single
// value gives lo == hi == estimate. Empty input or non-positive values give NaNs.
Interval geomean_ci(std::span<const double> ratios, uint64_t seed, int resamples = 2000,
                    double confidence = 0.95);

}  // namespace kta::engine
