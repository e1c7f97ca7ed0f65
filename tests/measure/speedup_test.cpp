#include "engine/measure/speedup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace kta::engine {
namespace {

TEST(ShapeSpeedup, PairedRatiosCancelWhatSlowsBothSamplesOfARound) {
  // A machine whose speed drifts 3x over the run: each round's pair drifts together.
  std::vector<double> a, b;
  for (int i = 0; i < 12; ++i) {
    double slow = 1 + 0.2 * i;
    a.push_back(2e-3 * slow);
    b.push_back(1e-3 * slow);
  }
  SpeedupInterval s = shape_speedup(a, b);
  EXPECT_NEAR(s.estimate, 2.0, 1e-12);
  EXPECT_NEAR(s.lo, 2.0, 1e-9);
  EXPECT_NEAR(s.hi, 2.0, 1e-9);
  EXPECT_EQ(s.rounds, 12);
}

TEST(ShapeSpeedup, SmallSamplesGetTheTInterval) {
  // log ratios 0.1, 0, -0.1: mean 0, sd 0.1, se 0.0577, t(0.975; 2) = 4.303.
  std::vector<double> a = {std::exp(0.1), 1, std::exp(-0.1)}, b = {1, 1, 1};
  SpeedupInterval s = shape_speedup(a, b);
  EXPECT_NEAR(s.estimate, 1.0, 1e-12);
  EXPECT_NEAR(std::log(s.hi), 4.303 * 0.1 / std::sqrt(3.0), 1e-3);
  EXPECT_NEAR(std::log(s.lo), -4.303 * 0.1 / std::sqrt(3.0), 1e-3);
  EXPECT_DOUBLE_EQ(s.df, 2);
}

TEST(ShapeSpeedup, ARoundHitByInterferenceDoesNotMoveTheEstimate) {
  std::vector<double> a(10, 2e-3), b(10, 1e-3);
  a[3] = 20e-3;  // one baseline sample 10x slow
  SpeedupInterval s = shape_speedup(a, b);
  EXPECT_NEAR(s.estimate, 2.0, 1e-9);  // trimmed
  EXPECT_DOUBLE_EQ(s.df, 5);           // g = 2 each end, h = 6
}

TEST(ShapeSpeedup, OneRoundHasNoInterval) {
  SpeedupInterval s = shape_speedup(std::vector<double>{2}, std::vector<double>{1});
  EXPECT_DOUBLE_EQ(s.estimate, 2);
  EXPECT_FALSE(s.has_interval());
  EXPECT_TRUE(std::isinf(s.relative_half_width()));
}

TEST(CombinedSpeedup, CombinesStandardErrorsNotShapeSpread) {
  // The worked example of docs/eval.md.
  SpeedupInterval s1, s2;
  s1.estimate = 0.5;
  s1.log_se = 0.0264;
  s1.df = 5;
  s1.lo = s1.hi = 0.5;  // has_interval()
  s2.estimate = 0.6;
  s2.log_se = 0.0200;
  s2.df = 5;
  s2.lo = s2.hi = 0.6;
  std::vector<SpeedupInterval> shapes = {s1, s2};
  SpeedupInterval t = combined_speedup(shapes);
  EXPECT_NEAR(t.estimate, std::sqrt(0.3), 1e-12);
  EXPECT_NEAR(t.log_se, 0.01656, 1e-4);
  EXPECT_NEAR(t.df, 9.4, 0.1);
  EXPECT_NEAR(t.lo, 0.53, 0.005);
  EXPECT_NEAR(t.hi, 0.57, 0.005);
}

TEST(CombinedSpeedup, HeterogeneousButExactShapesGiveAPoint) {
  std::vector<double> one(5, 1.0);
  std::vector<double> slow(5, 1 / 0.3);
  std::vector<SpeedupInterval> shapes = {shape_speedup(one, slow), shape_speedup(one, one)};
  SpeedupInterval t = combined_speedup(shapes);
  EXPECT_NEAR(t.estimate, std::sqrt(0.3), 1e-12);
  EXPECT_NEAR(t.hi, std::sqrt(0.3), 1e-9);  // far below 1: a gate at 1.0 fails
}

TEST(CombinedSpeedup, AShapeWithoutAnIntervalLeavesTheTaskWithout) {
  std::vector<SpeedupInterval> shapes = {
      shape_speedup(std::vector<double>{2, 2.1}, std::vector<double>{1, 1}),
      shape_speedup(std::vector<double>{2}, std::vector<double>{1})};
  EXPECT_FALSE(combined_speedup(shapes).has_interval());
}

// The baseline against itself read 1.00 with an interval reaching 1.5% off: the two sides may be
// 1.5% apart, not 0 (a speedup interval widened by the estimate alone excluded 1 for identical
// code). Without an interval the estimate is all there is.
TEST(OffsetBound, IsTheFarEndOfTheSelfRatiosInterval) {
  SpeedupInterval same{1.0, 0.985, 1.012, 0.007, 9, 10};
  EXPECT_NEAR(offset_bound(same), -std::log(0.985), 1e-12);
  SpeedupInterval high{1.02, 1.005, 1.035, 0.007, 9, 10};
  EXPECT_NEAR(offset_bound(high), std::log(1.035), 1e-12);
  SpeedupInterval point{0.97, NAN, NAN, NAN, 0, 1};
  EXPECT_NEAR(offset_bound(point), -std::log(0.97), 1e-12);
  EXPECT_EQ(offset_bound(SpeedupInterval{}), 0.0);
}

}  // namespace
}  // namespace kta::engine
