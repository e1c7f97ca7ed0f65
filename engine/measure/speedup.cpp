#include "engine/measure/speedup.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace kta::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kTrim = 0.2;

double t_quantile(double df, double confidence) {
  boost::math::students_t t(df);
  return boost::math::quantile(t, 0.5 + confidence / 2);
}

// Fills lo/hi from estimate, log_se and df.
void set_interval(SpeedupInterval& s, double confidence) {
  if (!(s.df >= 1) || !std::isfinite(s.log_se)) {
    s.lo = s.hi = kNaN;
    return;
  }
  double w = s.log_se > 0 ? t_quantile(s.df, confidence) * s.log_se : 0;
  double mid = std::log(s.estimate);
  s.lo = std::exp(mid - w);
  s.hi = std::exp(mid + w);
}

}  // namespace

bool SpeedupInterval::has_interval() const { return std::isfinite(lo) && std::isfinite(hi); }

double SpeedupInterval::relative_half_width() const {
  if (!has_interval() || !(estimate > 0)) return std::numeric_limits<double>::infinity();
  return (hi - lo) / (2 * estimate);
}

SpeedupInterval shape_speedup(std::span<const double> a, std::span<const double> b,
                              double confidence) {
  assert(a.size() == b.size());
  SpeedupInterval s;
  size_t n = std::min(a.size(), b.size());
  s.rounds = static_cast<int>(n);
  if (n == 0) return {kNaN, kNaN, kNaN, kNaN, 0, 0};
  std::vector<double> logs;
  logs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!(a[i] > 0) || !(b[i] > 0)) return {kNaN, kNaN, kNaN, kNaN, 0, s.rounds};
    logs.push_back(std::log(a[i] / b[i]));
  }
  std::sort(logs.begin(), logs.end());
  auto g = static_cast<size_t>(std::floor(kTrim * static_cast<double>(n)));
  size_t h = n - 2 * g;
  double sum = 0;
  for (size_t i = g; i < n - g; ++i) sum += logs[i];
  double mean = sum / static_cast<double>(h);
  s.estimate = std::exp(mean);
  if (n < 2) {
    s.lo = s.hi = kNaN;
    s.log_se = kNaN;
    return s;
  }
  // Winsorized: the g smallest become the (g+1)-th, the g largest the (n-g)-th.
  double wsum = 0, wss = 0;
  for (size_t i = 0; i < n; ++i) wsum += std::clamp(logs[i], logs[g], logs[n - 1 - g]);
  double wmean = wsum / static_cast<double>(n);
  for (size_t i = 0; i < n; ++i) {
    double d = std::clamp(logs[i], logs[g], logs[n - 1 - g]) - wmean;
    wss += d * d;
  }
  double sw = std::sqrt(wss / static_cast<double>(n - 1));
  double kept = static_cast<double>(h) / static_cast<double>(n);  // 1 - 2g/n
  s.log_se = sw / (kept * std::sqrt(static_cast<double>(n)));
  s.df = static_cast<double>(h) - 1;
  set_interval(s, confidence);
  return s;
}

SpeedupInterval combined_speedup(std::span<const SpeedupInterval> shapes, double confidence) {
  SpeedupInterval s;
  s.rounds = static_cast<int>(shapes.size());
  if (shapes.empty()) return {kNaN, kNaN, kNaN, kNaN, 0, 0};
  double mean = 0, var = 0, var_sq_over_df = 0;
  bool intervals = true;
  for (const auto& x : shapes) {
    if (!(x.estimate > 0)) return {kNaN, kNaN, kNaN, kNaN, 0, s.rounds};
    mean += std::log(x.estimate);
    if (!x.has_interval()) {
      intervals = false;
      continue;
    }
    double v = x.log_se * x.log_se;
    var += v;
    if (v > 0) var_sq_over_df += v * v / x.df;
  }
  double count = static_cast<double>(shapes.size());
  s.estimate = std::exp(mean / count);
  if (!intervals) {
    s.lo = s.hi = s.log_se = kNaN;
    return s;
  }
  s.log_se = std::sqrt(var) / count;
  // Welch-Satterthwaite; with every shape exact (no spread at all) any df gives a point.
  s.df = var_sq_over_df > 0 ? var * var / var_sq_over_df : 1e9;
  set_interval(s, confidence);
  return s;
}

double offset_bound(const SpeedupInterval& same) {
  if (!(same.estimate > 0)) return 0;
  if (!same.has_interval() || !(same.lo > 0)) return std::abs(std::log(same.estimate));
  return std::max(std::abs(std::log(same.lo)), std::abs(std::log(same.hi)));
}

}  // namespace kta::engine
