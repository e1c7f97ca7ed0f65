#include "engine/check/degenerate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/check/compare.h"

namespace kta::engine {

namespace {

std::optional<std::string> nan_without_nan_equal(const HostTensor& t, const model::Tolerance& tol) {
  if (tol.nan_equal) return std::nullopt;
  for (size_t i = 0; i < t.numel(); ++i)
    if (std::isnan(element_as_double(t, i)))
      return fmt::format(
          "reference output has NaN at index {}; no output can match it without nan_equal", i);
  return std::nullopt;
}

bool all_zero_passes(const HostTensor& want, const model::Tolerance& tol) {
  HostTensor zeros = HostTensor::zeros(want.dtype, want.shape);
  return compare(zeros, want, tol).pass;
}

std::optional<double> constant_value(const HostTensor& t) {
  size_t n = t.numel();
  if (n < 2) return std::nullopt;
  double first = element_as_double(t, 0);
  for (size_t i = 1; i < n; ++i)
    if (!(element_as_double(t, i) == first)) return std::nullopt;
  return first;
}

}  // namespace

std::optional<std::string> degenerate_reference(std::span<const HostTensor> by_seed,
                                                const model::Tolerance& tol) {
  for (const HostTensor& want : by_seed)
    if (auto nan = nan_without_nan_equal(want, tol)) return nan;
  if (!by_seed.empty() && by_seed[0].numel() > 0 &&
      std::all_of(by_seed.begin(), by_seed.end(),
                  [&](const HostTensor& w) { return all_zero_passes(w, tol); }))
    return "reference output is all zeros within tolerance: an all-zero output passes";
  for (const HostTensor& want : by_seed)
    if (auto c = constant_value(want))
      return fmt::format("reference output is constant (every element is {})", *c);
  for (size_t s = 1; s < by_seed.size(); ++s)
    if (by_seed[s].numel() > 0 && compare(by_seed[0], by_seed[s], tol).pass)
      return fmt::format(
          "reference output does not depend on the seed: seed 0's output passes for seed {}", s);
  return std::nullopt;
}

}  // namespace kta::engine
