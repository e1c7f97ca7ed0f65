#include "engine/compare/comparison.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace kta::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? kNaN : s / static_cast<double>(v.size());
}

PairedFigure correctness_figure(const std::vector<PairedTask>& units, const CompareOptions& o) {
  std::vector<double> a, b;
  for (const PairedTask& t : units) {
    a.push_back(t.a.correctness());
    b.push_back(t.b.correctness());
  }
  PairedFigure f;
  f.n_a = f.n_b = f.n = static_cast<int>(units.size());
  f.a = mean(a);
  f.b = mean(b);
  f.diff = paired_mean_difference(a, b, o.seed, o.resamples, o.confidence);
  return f;
}

PairedFigure speedup_figure(const std::vector<PairedTask>& units, const CompareOptions& o,
                            SignTest* test) {
  std::vector<double> all_a, all_b, a, b, d;
  for (const PairedTask& t : units) {
    if (t.a.log_speedup) all_a.push_back(*t.a.log_speedup);
    if (t.b.log_speedup) all_b.push_back(*t.b.log_speedup);
    if (t.a.log_speedup && t.b.log_speedup) {
      a.push_back(*t.a.log_speedup);
      b.push_back(*t.b.log_speedup);
      d.push_back(b.back() - a.back());
    }
  }
  PairedFigure f;
  f.n_a = static_cast<int>(all_a.size());
  f.n_b = static_cast<int>(all_b.size());
  f.n = static_cast<int>(a.size());
  if (f.n_a) f.a = std::exp(mean(all_a));
  if (f.n_b) f.b = std::exp(mean(all_b));
  if (f.n) {
    Interval log_diff = paired_mean_difference(a, b, o.seed, o.resamples, o.confidence);
    f.diff = {std::exp(log_diff.estimate), std::exp(log_diff.lo), std::exp(log_diff.hi)};
  }
  *test = sign_test(d);
  return f;
}

PairedFigure retention_figure(const std::vector<PairedTask>& units, const CompareOptions& o) {
  auto retention = [&units](std::span<const size_t> idx, bool side_b) {
    int evaluated = 0, retained = 0;
    for (size_t i : idx) {
      const UnitSide& s = side_b ? units[i].b : units[i].a;
      evaluated += s.heldout_evaluated;
      retained += s.heldout_retained;
    }
    return evaluated ? static_cast<double>(retained) / evaluated : kNaN;
  };
  PairedFigure f;
  for (const PairedTask& t : units) {
    f.n_a += t.a.heldout_evaluated > 0;
    f.n_b += t.b.heldout_evaluated > 0;
    f.n += t.a.heldout_evaluated > 0 && t.b.heldout_evaluated > 0;
  }
  std::vector<size_t> all(units.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (f.n_a) f.a = retention(all, false);
  if (f.n_b) f.b = retention(all, true);
  if (f.n_a && f.n_b) {
    auto diff = [&retention](std::span<const size_t> idx) {
      return retention(idx, true) - retention(idx, false);
    };
    f.diff = paired_bootstrap(units.size(), diff, o.seed, o.resamples, o.confidence);
  }
  return f;
}

PairedFigure aka_figure(const std::vector<PairedTask>& units, const CompareOptions& o) {
  std::vector<double> a, b;
  for (const PairedTask& t : units) {
    a.push_back(t.a.aka_score);
    b.push_back(t.b.aka_score);
  }
  PairedFigure f;
  f.n_a = f.n_b = f.n = static_cast<int>(units.size());
  f.a = mean(a);
  f.b = mean(b);
  f.diff = paired_mean_difference(a, b, o.seed, o.resamples, o.confidence);
  return f;
}

}  // namespace

Comparison compare_runs(RunResults a, RunResults b, const CompareOptions& options) {
  Comparison c;
  c.options = options;
  c.pairing = pair_runs(a, b, options.agent_a, options.agent_b);
  if (c.pairing.paired.empty())
    throw RunInputError(fmt::format(
        "the runs share no evaluated task{} ({} only in A, {} only in B, {} skipped): nothing to "
        "compare",
        c.pairing.by_agent ? " and agent" : "", c.pairing.only_a.size(), c.pairing.only_b.size(),
        c.pairing.skipped.size()));
  a.tasks.clear();
  b.tasks.clear();
  c.run_a = std::move(a);
  c.run_b = std::move(b);
  const auto& units = c.pairing.paired;
  int both = 0, a_only = 0, b_only = 0, neither = 0;
  for (const PairedTask& t : units) {
    c.single_repeat = c.single_repeat && t.a.repeats == 1 && t.b.repeats == 1;
    bool pa = t.a.passes(), pb = t.b.passes();
    both += pa && pb;
    a_only += pa && !pb;
    b_only += !pa && pb;
    neither += !pa && !pb;
  }
  c.correctness = correctness_figure(units, options);
  c.correctness_test = mcnemar_exact(both, a_only, b_only, neither);
  c.speedup = speedup_figure(units, options, &c.speedup_test);
  c.retention = retention_figure(units, options);
  c.aka_score = aka_figure(units, options);
  return c;
}

}  // namespace kta::engine
