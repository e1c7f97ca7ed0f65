#include "engine/measure/stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kta::engine {
namespace {

TEST(Stats, HandComputedSeries) {
  std::vector<double> v = {4, 1, 3, 2};
  Stats s = summarize(v);
  EXPECT_EQ(s.n, 4);
  EXPECT_EQ(s.median, 2.5);  // mean of the two middle values
  EXPECT_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(5.0 / 3.0));  // sample stdev (n - 1)
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.noise, std::sqrt(5.0 / 3.0) / 2.5);
  EXPECT_EQ(s.samples, v);  // kept in the order taken
}

TEST(Stats, OddCountMedianAndDegenerateSeries) {
  EXPECT_EQ(summarize(std::vector<double>{5, 1, 9}).median, 5);
  Stats one = summarize(std::vector<double>{7});
  EXPECT_EQ(one.median, 7);
  EXPECT_EQ(one.stdev, 0);
  EXPECT_EQ(one.noise, 0);
  Stats none = summarize(std::vector<double>{});
  EXPECT_EQ(none.n, 0);
  Stats flat = summarize(std::vector<double>{2, 2, 2});
  EXPECT_EQ(flat.noise, 0);
}

TEST(Stats, QuantileInterpolates) {
  std::vector<double> sorted = {10, 20, 30, 40};
  EXPECT_EQ(quantile_sorted(sorted, 0), 10);
  EXPECT_EQ(quantile_sorted(sorted, 1), 40);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.5), 25);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.25), 17.5);
  EXPECT_TRUE(std::isnan(quantile_sorted(std::vector<double>{}, 0.5)));
}

}  // namespace
}  // namespace kta::engine
