#include "engine/validate/answers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace kta::engine {

namespace {

// v rounded to `bits` mantissa bits (after the leading one), to nearest even; the exponent range
// is left unbounded (what matters is the precision, not the format's range).
double round_mantissa(double v, int bits) {
  if (!std::isfinite(v) || v == 0) return v;
  int exp = 0;
  double m = std::frexp(v, &exp);  // v = m * 2^exp, 0.5 <= |m| < 1
  double scale = std::ldexp(1.0, bits + 1);
  return std::ldexp(std::nearbyint(m * scale) / scale, exp);
}

bool is_float(model::DType d) {
  using model::DType;
  return d == DType::f16 || d == DType::bf16 || d == DType::f32 || d == DType::f64;
}

}  // namespace

std::optional<HostTensor> lower_precision(const HostTensor& t, std::string* format) {
  using model::DType;
  int bits = 0;
  switch (t.dtype) {
    case DType::f64:
      bits = 23;
      *format = "f32";
      break;
    case DType::f32:
      bits = 7;
      *format = "bf16";
      break;
    case DType::f16:
    case DType::bf16:
      bits = 3;
      *format = "f8 (e4m3 precision)";
      break;
    default:
      return std::nullopt;
  }
  HostTensor out = t;
  size_t n = t.numel();
  std::vector<double> v(n);
  load_elements(t, 0, n, v.data());
  for (double& x : v) x = round_mantissa(x, bits);
  store_elements(out, 0, n, v.data());
  return out;
}

HostTensor perturbed(const HostTensor& t, double fraction, uint64_t seed, size_t* changed) {
  HostTensor out = t;
  size_t n = t.numel();
  size_t k = std::min(n, std::max<size_t>(1, static_cast<size_t>(std::ceil(fraction * n))));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t(0));
  std::mt19937_64 rng(seed);
  // A partial Fisher-Yates shuffle: the first k of `order` are a uniform sample.
  for (size_t i = 0; i < k; ++i) {
    std::uniform_int_distribution<size_t> pick(i, n - 1);
    std::swap(order[i], order[pick(rng)]);
  }
  for (size_t i = 0; i < k; ++i) {
    double v = element_as_double(t, order[i]);
    double w;
    if (t.dtype == model::DType::boolean) {
      w = v != 0 ? 0 : 1;
    } else if (is_float(t.dtype)) {
      w = std::isfinite(v) ? v + 1 + std::fabs(v) : 0;
    } else {
      w = v + 1;
      // Saturation would leave the largest value as it was: go down instead.
      HostTensor probe = t;
      set_element(probe, order[i], w);
      if (element_as_double(probe, order[i]) == v) w = v - 1;
    }
    set_element(out, order[i], w);
  }
  *changed = k;
  return out;
}

double tolerance_usage(const HostTensor& got, const HostTensor& want, const model::Tolerance& tol) {
  const double inf = std::numeric_limits<double>::infinity();
  size_t n = want.numel();
  if (got.numel() != n || got.dtype != want.dtype) return inf;
  std::vector<double> g(n), w(n), usage(n);
  load_elements(got, 0, n, g.data());
  load_elements(want, 0, n, w.data());
  for (size_t i = 0; i < n; ++i) {
    double a = g[i], b = w[i];
    if (std::isnan(a) || std::isnan(b)) {
      usage[i] = std::isnan(a) && std::isnan(b) && tol.nan_equal ? 0 : inf;
      continue;
    }
    if (std::isinf(a) || std::isinf(b)) {
      usage[i] = a == b ? 0 : inf;
      continue;
    }
    double err = std::fabs(a - b);
    double bound = tol.atol + tol.rtol * std::fabs(b);
    usage[i] = err == 0 ? 0 : bound > 0 ? err / bound : inf;
  }
  size_t allowed = static_cast<size_t>(std::floor(tol.max_mismatch * static_cast<double>(n)));
  if (n == 0 || allowed >= n) return 0;
  std::nth_element(usage.begin(), usage.begin() + static_cast<std::ptrdiff_t>(n - 1 - allowed),
                   usage.end());
  return usage[n - 1 - allowed];
}

}  // namespace kta::engine
