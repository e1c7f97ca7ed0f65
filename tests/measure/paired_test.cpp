// Paired statistics against values computed exactly (Python fractions over math.comb) and
// bootstrap intervals against a known difference.
#include "engine/measure/paired.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace kta::engine {
namespace {

TEST(BinomialTest, TwoSidedExactValues) {
  EXPECT_DOUBLE_EQ(binomial_two_sided_p(10, 9), 0.021484375);
  EXPECT_DOUBLE_EQ(binomial_two_sided_p(10, 1), 0.021484375);  // symmetric
  EXPECT_DOUBLE_EQ(binomial_two_sided_p(20, 15), 0.04138946533203125);
  EXPECT_DOUBLE_EQ(binomial_two_sided_p(5, 0), 0.0625);
  EXPECT_NEAR(binomial_two_sided_p(100, 40), 0.05688793364098079, 1e-15);
}

TEST(BinomialTest, DegenerateAndBalancedCountsGiveOne) {
  EXPECT_EQ(binomial_two_sided_p(0, 0), 1.0);
  EXPECT_EQ(binomial_two_sided_p(1, 1), 1.0);
  EXPECT_EQ(binomial_two_sided_p(6, 3), 1.0);
  EXPECT_EQ(binomial_two_sided_p(7, 3), 1.0);
}

TEST(BinomialTest, LargeCountsInLogSpace) {
  EXPECT_NEAR(binomial_two_sided_p(1001, 450) / 0.001561138839699202, 1, 1e-9);
  EXPECT_NEAR(binomial_two_sided_p(2000, 900) / 8.457089535503927e-06, 1, 1e-9);
  EXPECT_NEAR(binomial_two_sided_p(3000, 1400) / 0.0002785639610392337, 1, 1e-9);
  EXPECT_EQ(binomial_two_sided_p(2000, 1000), 1.0);
}

TEST(SignTest, CountsSignsDropsTiesAndNaN) {
  std::vector<double> d = {0.1, 0.2, 0.3,  0.4, 0.5, 0.6, 0.7,
                           0.8, 0.9, -0.1, 0,   0,   0,   std::numeric_limits<double>::quiet_NaN()};
  SignTest t = sign_test(d);
  EXPECT_EQ(t.plus, 9);
  EXPECT_EQ(t.minus, 1);
  EXPECT_EQ(t.ties, 3);
  EXPECT_DOUBLE_EQ(t.p, 0.021484375);
}

TEST(SignTest, TieToleranceWidensTies) {
  std::vector<double> d = {0.001, -0.001, 0.5};
  SignTest t = sign_test(d, 0.01);
  EXPECT_EQ(t.plus, 1);
  EXPECT_EQ(t.minus, 0);
  EXPECT_EQ(t.ties, 2);
  EXPECT_EQ(t.p, 1.0);
}

TEST(McNemarTest, OnlyDiscordantPairsCount) {
  McNemar m = mcnemar_exact(5, 1, 9, 3);
  EXPECT_DOUBLE_EQ(m.p, 0.021484375);
  // Concordant pairs change nothing.
  EXPECT_DOUBLE_EQ(mcnemar_exact(500, 1, 9, 300).p, 0.021484375);
  EXPECT_EQ(mcnemar_exact(10, 0, 0, 10).p, 1.0);
  EXPECT_DOUBLE_EQ(mcnemar_exact(0, 15, 5, 0).p, 0.04138946533203125);
}

std::vector<double> normal(int n, double mean, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist(mean, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = dist(gen);
  return v;
}

TEST(PairedBootstrap, IntervalContainsTheTrueDifference) {
  std::vector<double> a = normal(200, 0, 1), noise = normal(200, 0, 2), b(200);
  for (size_t i = 0; i < a.size(); ++i) b[i] = a[i] + 0.5 + 0.3 * noise[i];
  Interval d = paired_mean_difference(a, b, 42);
  EXPECT_LT(d.lo, 0.5);
  EXPECT_GT(d.hi, 0.5);
  EXPECT_LT(d.lo, d.estimate);
  EXPECT_GT(d.hi, d.estimate);
  EXPECT_LT(d.hi - d.lo, 0.2);  // sd of the mean difference is 0.3/sqrt(200) ~ 0.02
}

TEST(PairedBootstrap, DeterministicForASeed) {
  std::vector<double> a = normal(50, 0, 3), b = normal(50, 0.2, 4);
  Interval x = paired_mean_difference(a, b, 7), y = paired_mean_difference(a, b, 7);
  EXPECT_EQ(x.lo, y.lo);
  EXPECT_EQ(x.hi, y.hi);
  Interval z = paired_mean_difference(a, b, 8);
  EXPECT_NE(x.lo, z.lo);
  EXPECT_EQ(x.estimate, z.estimate);
}

TEST(PairedBootstrap, CoverageIsNearTheNominalLevel) {
  int covered = 0, trials = 200;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> a = normal(40, 0, 100 + t), b = normal(40, 1, 1000 + t);
    Interval d = paired_mean_difference(a, b, 5, 2000);
    covered += d.lo <= 1 && 1 <= d.hi;
  }
  // Percentile intervals at n = 40 under-cover slightly; 95% nominal.
  EXPECT_GE(covered, 170);
  EXPECT_LE(covered, 199);
}

TEST(PairedBootstrap, ConstantDifferenceGivesAPointInterval) {
  std::vector<double> a = {1, 2, 3, 4}, b = {1.5, 2.5, 3.5, 4.5};
  Interval d = paired_mean_difference(a, b, 1);
  EXPECT_DOUBLE_EQ(d.estimate, 0.5);
  EXPECT_DOUBLE_EQ(d.lo, 0.5);
  EXPECT_DOUBLE_EQ(d.hi, 0.5);
}

TEST(PairedBootstrap, UndefinedStatisticGivesNaNInterval) {
  auto nan = [](std::span<const size_t>) { return std::numeric_limits<double>::quiet_NaN(); };
  Interval d = paired_bootstrap(5, nan, 1, 1000);
  EXPECT_TRUE(std::isnan(d.lo));
  EXPECT_TRUE(std::isnan(d.hi));
  EXPECT_TRUE(std::isnan(paired_bootstrap(0, nan, 1).estimate));
}

TEST(PairedBootstrap, ResamplesDrawWithReplacement) {
  // With 3 units some resamples repeat a unit: the max over resamples exceeds the sample's.
  std::vector<double> a = {0, 0, 0}, b = {1, 2, 3};
  Interval d = paired_mean_difference(a, b, 3, 10000, 0.99);
  EXPECT_DOUBLE_EQ(d.estimate, 2);
  EXPECT_LT(d.lo, 1.5);
  EXPECT_GT(d.hi, 2.5);
  EXPECT_GE(d.lo, 1);
  EXPECT_LE(d.hi, 3);
}

}  // namespace
}  // namespace kta::engine
