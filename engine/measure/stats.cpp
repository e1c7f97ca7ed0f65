#include "engine/measure/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kta::engine {

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  auto lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Stats summarize(std::span<const double> samples) {
  Stats s;
  s.samples.assign(samples.begin(), samples.end());
  s.n = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::vector<double> sorted = s.samples;
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = quantile_sorted(sorted, 0.5);
  double sum = 0;
  for (double v : samples) sum += v;
  s.mean = sum / s.n;
  if (s.n >= 2) {
    double ss = 0;
    for (double v : samples) ss += (v - s.mean) * (v - s.mean);
    s.stdev = std::sqrt(ss / (s.n - 1));
    s.noise = s.mean != 0 ? s.stdev / std::fabs(s.mean)
                          : (s.stdev == 0 ? 0 : std::numeric_limits<double>::infinity());
  }
  return s;
}

}  // namespace kta::engine
