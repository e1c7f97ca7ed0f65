#include "engine/measure/paired.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "engine/inputs/philox.h"
#include "engine/measure/stats.h"

namespace kta::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// P(X <= k) for X ~ Binomial(n, 1/2). Binomial coefficients are exact in double up to n of a
// few dozen and representable up to n = 1000, so small tests come out exact; beyond that the
// terms are summed in log space relative to the largest one.
double binomial_lower_tail(int n, int k) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (n <= 1000) {
    double term = 1, sum = 1;  // C(n, 0)
    for (int i = 1; i <= k; ++i) {
      term = term * (n - i + 1) / i;
      sum += term;
    }
    return std::min(1.0, sum * std::ldexp(1.0, -n));
  }
  auto log_term = [n](int i) {
    return std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) -
           n * std::log(2.0);
  };
  double top = log_term(k);  // the largest term of a lower tail with k < n / 2
  double sum = 0;
  for (int i = 0; i <= k; ++i) sum += std::exp(log_term(i) - top);
  return std::min(1.0, std::exp(top) * sum);
}

size_t pick(uint64_t seed, uint64_t counter, size_t n) {
  PhiloxCounter w = philox_block(seed, counter);
  uint64_t bits = (uint64_t{w[0]} << 32) | w[1];
  return static_cast<size_t>((static_cast<unsigned __int128>(bits) * n) >> 64);
}

}  // namespace

double binomial_two_sided_p(int n, int k) {
  assert(n >= 0 && k >= 0 && k <= n);
  if (n == 0) return 1;
  return std::min(1.0, 2 * binomial_lower_tail(n, std::min(k, n - k)));
}

SignTest sign_test(std::span<const double> differences, double tie) {
  SignTest t;
  for (double d : differences) {
    if (std::isnan(d)) continue;
    if (std::abs(d) <= tie)
      ++t.ties;
    else if (d > 0)
      ++t.plus;
    else
      ++t.minus;
  }
  t.p = binomial_two_sided_p(t.plus + t.minus, t.plus);
  return t;
}

McNemar mcnemar_exact(int both, int a_only, int b_only, int neither) {
  McNemar m{both, a_only, b_only, neither, 1};
  m.p = binomial_two_sided_p(a_only + b_only, b_only);
  return m;
}

Interval paired_bootstrap(size_t n, const std::function<double(std::span<const size_t>)>& statistic,
                          uint64_t seed, int resamples, double confidence) {
  if (n == 0 || resamples < 1 || !(confidence > 0) || !(confidence < 1)) return {kNaN, kNaN, kNaN};
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), size_t{0});
  Interval out;
  out.estimate = statistic(idx);
  // Draw j of resample r comes from Philox counter (r * n + j), as in geomean_ci.
  std::vector<double> values;
  values.reserve(static_cast<size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    for (size_t j = 0; j < n; ++j) idx[j] = pick(seed, static_cast<uint64_t>(r) * n + j, n);
    double v = statistic(idx);
    if (std::isfinite(v)) values.push_back(v);
  }
  if (values.size() * 2 < static_cast<size_t>(resamples)) {
    out.lo = out.hi = kNaN;
    return out;
  }
  std::sort(values.begin(), values.end());
  double tail = (1 - confidence) / 2;
  out.lo = quantile_sorted(values, tail);
  out.hi = quantile_sorted(values, 1 - tail);
  return out;
}

Interval paired_mean_difference(std::span<const double> a, std::span<const double> b, uint64_t seed,
                                int resamples, double confidence) {
  assert(a.size() == b.size());
  std::vector<double> d(a.size());
  for (size_t i = 0; i < a.size(); ++i) d[i] = b[i] - a[i];
  auto mean = [&d](std::span<const size_t> idx) {
    double sum = 0;
    for (size_t i : idx) sum += d[i];
    return sum / static_cast<double>(idx.size());
  };
  return paired_bootstrap(d.size(), mean, seed, resamples, confidence);
}

}  // namespace kta::engine
