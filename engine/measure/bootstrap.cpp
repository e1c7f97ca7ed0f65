#include "engine/measure/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/inputs/philox.h"
#include "engine/measure/stats.h"

namespace kta::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool all_positive(std::span<const double> v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x) && x > 0; });
}

}  // namespace

double geomean(std::span<const double> values) {
  if (values.empty() || !all_positive(values)) return kNaN;
  double sum = 0;
  for (double v : values) sum += std::log(v);
  return std::exp(sum / static_cast<double>(values.size()));
}

Interval geomean_ci(std::span<const double> ratios, uint64_t seed, int resamples,
                    double confidence) {
  if (ratios.empty() || !all_positive(ratios) || resamples < 1 || !(confidence > 0) ||
      !(confidence < 1))
    return {kNaN, kNaN, kNaN};
  Interval out;
  out.estimate = geomean(ratios);
  size_t n = ratios.size();
  if (n == 1) return {out.estimate, out.estimate, out.estimate};
  std::vector<double> logs(n);
  for (size_t i = 0; i < n; ++i) logs[i] = std::log(ratios[i]);

  // Draw j of resample r comes from Philox counter (r * n + j): four indices per block would be
  // faster, but one per counter keeps the scheme obvious and the cost is negligible here.
  std::vector<double> means(static_cast<size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    double sum = 0;
    for (size_t j = 0; j < n; ++j) {
      PhiloxCounter w = philox_block(seed, static_cast<uint64_t>(r) * n + j);
      uint64_t bits = (uint64_t{w[0]} << 32) | w[1];
      auto pick = static_cast<size_t>((static_cast<unsigned __int128>(bits) * n) >> 64);
      sum += logs[pick];
    }
    means[static_cast<size_t>(r)] = sum / static_cast<double>(n);
  }
  std::sort(means.begin(), means.end());
  double tail = (1 - confidence) / 2;
  out.lo = std::exp(quantile_sorted(means, tail));
  out.hi = std::exp(quantile_sorted(means, 1 - tail));
  return out;
}

}  // namespace kta::engine
