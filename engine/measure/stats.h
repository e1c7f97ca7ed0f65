// Summary statistics of a sample of timings.
#pragma once

#include <span>
#include <vector>

namespace kta::engine {

// Summary of one series of samples (seconds). noise = stdev / mean (relative standard
// deviation, sample stdev with n-1); 0 for n < 2. median of an even count is the mean of the two
// middle values.
struct Stats {
  int n = 0;
  double median = 0, mean = 0, stdev = 0, min = 0, max = 0, noise = 0;
  std::vector<double> samples;  // in the order taken
  bool operator==(const Stats&) const = default;
};

Stats summarize(std::span<const double> samples);

// Quantile q in [0, 1] with linear interpolation (type 7); `sorted` must be sorted.
double quantile_sorted(std::span<const double> sorted, double q);

}  // namespace kta::engine
