#include "engine/measure/protocol.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace kta::engine {
namespace {

// A scripted device: each call returns the next time of its series, records the order of calls
// and advances a fake wall clock by the sample's duration (plus fixed overhead).
struct Script {
  std::vector<std::string> order;
  double now = 0;
  double overhead = 0.001;

  std::function<Sample()> series(std::string name, std::function<double(int)> time_of) {
    auto count = std::make_shared<int>(0);
    return [this, name, time_of, count] {
      double t = time_of((*count)++);
      order.push_back(name);
      now += t + overhead;
      return Sample{true, t, ""};
    };
  }
  Clock clock() {
    return [this] { return now; };
  }
};

model::Timing timing(int warmup, int min_samples, int max_samples, double max_noise,
                     double budget_s) {
  model::Timing t;
  t.warmup = warmup;
  t.min_samples = min_samples;
  t.max_samples = max_samples;
  t.max_noise = max_noise;
  t.budget_ns = static_cast<int64_t>(budget_s * 1e9);
  return t;
}

// Alternates around `mid` by +-spread (relative noise ~ spread/mid).
std::function<double(int)> wobble(double mid, double spread) {
  return [=](int i) { return i % 2 ? mid + spread : mid - spread; };
}

// The same in the opposite phase: paired with wobble, every round's ratio is off by 2 spread.
std::function<double(int)> counter_wobble(double mid, double spread) {
  return [=](int i) { return i % 2 ? mid - spread : mid + spread; };
}

TEST(InterleavedProtocol, QuietSeriesStopAtMinSamples) {
  Script s;
  InterleavedProtocol p(timing(2, 10, 1000, 0.005, 100), {}, s.clock());
  auto out = p.run(s.series("A", wobble(2e-3, 1e-6)), s.series("B", wobble(1e-3, 1e-6)));
  EXPECT_TRUE(out.stopped_on_noise);
  EXPECT_FALSE(out.hit_budget || out.hit_max || out.failed);
  EXPECT_EQ(out.a.n, 10);
  EXPECT_EQ(out.b.n, 10);
  EXPECT_EQ(s.order.size(), 24u);  // 2 warmups each + 10 samples each
  // Paired rounds: ratios 1.999 and 2.001 alternate, so the speedup is 2 within 1e-6.
  EXPECT_NEAR(out.speedup.estimate, 2.0, 1e-6);
  EXPECT_EQ(out.speedup.rounds, 10);
  EXPECT_LT(out.speedup.lo, 2.0);
  EXPECT_GT(out.speedup.hi, 2.0);
}

// Every round samples each series once, after the round's hook, in an order drawn per round:
// over 40 rounds both orders occur (a fixed order would bias one side of every pair alike).
TEST(InterleavedProtocol, EachRoundSamplesEverySeriesOnceInADrawnOrder) {
  Script s;
  InterleavedProtocol p(timing(1, 40, 40, 0, 100), {}, s.clock(), 7);
  std::function<void(bool)> round = [&](bool) { s.order.push_back("|"); };
  std::function<Sample()> again = s.series("C", wobble(1, 0.5));
  p.run(s.series("A", wobble(1, 0.5)), s.series("B", wobble(1, 0.5)), &again, &round);
  ASSERT_EQ(s.order.size(), 41u * 4);  // a warm-up round and 40 rounds, each "|" and A, B, C
  std::set<std::string> orders;
  for (size_t r = 0; r < 41; ++r) {
    EXPECT_EQ(s.order[4 * r], "|");
    std::vector<std::string> got(s.order.begin() + 4 * r + 1, s.order.begin() + 4 * r + 4);
    orders.insert(got[0] + got[1] + got[2]);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<std::string>{"A", "B", "C"}));
  }
  EXPECT_EQ(orders.size(), 6u);  // all six orders of three, over 41 rounds
  // The same seed draws the same orders; the engine's default seed is a random one.
  Script t;
  InterleavedProtocol q(timing(1, 40, 40, 0, 100), {}, t.clock(), 7);
  std::function<void(bool)> mark = [&](bool) { t.order.push_back("|"); };
  std::function<Sample()> again_t = t.series("C", wobble(1, 0.5));
  q.run(t.series("A", wobble(1, 0.5)), t.series("B", wobble(1, 0.5)), &again_t, &mark);
  EXPECT_EQ(s.order, t.order);
}

// Counted rounds run in balanced blocks: every 6 rounds of three series hold the six orders once
// each, so every series takes each place twice and follows each other series as often as it
// follows the third; two series alternate A B / B A in pairs. An effect of place or predecessor
// then falls on B and C alike (independent draws left B after A in 6 of 10 rounds and C in 2).
TEST(InterleavedProtocol, CountedRoundsRunInBalancedBlocksOfOrders) {
  Script s;
  InterleavedProtocol p(timing(3, 36, 36, 0, 100), {}, s.clock(), 11);
  std::function<void(bool)> round = [&](bool counted) {
    if (counted) s.order.push_back("|");
  };
  std::function<Sample()> again = s.series("C", wobble(1, 0.5));
  p.run(s.series("A", wobble(1, 0.5)), s.series("B", wobble(1, 0.5)), &again, &round);
  ASSERT_EQ(s.order.size(), 3u * 3 + 36u * 4);  // 3 warm-up rounds, then 36 counted ones
  std::vector<std::string> orders;
  for (size_t r = 0; r < 36; ++r) {
    size_t at = 9 + 4 * r;
    ASSERT_EQ(s.order[at], "|");
    orders.push_back(s.order[at + 1] + s.order[at + 2] + s.order[at + 3]);
  }
  for (size_t b = 0; b < 6; ++b) {
    std::set<std::string> block(orders.begin() + 6 * b, orders.begin() + 6 * b + 6);
    EXPECT_EQ(block.size(), 6u) << "block " << b;
  }
  std::map<std::string, int> after;  // "AB": B sampled right after A within a round
  for (const auto& o : orders)
    for (size_t i = 1; i < 3; ++i) ++after[o.substr(i - 1, 2)];
  for (const char* pair : {"AB", "AC", "BA", "BC", "CA", "CB"}) EXPECT_EQ(after[pair], 12) << pair;

  Script t;
  InterleavedProtocol q(timing(0, 20, 20, 0, 100), {}, t.clock(), 5);
  q.run(t.series("A", wobble(1, 0.5)), t.series("B", wobble(1, 0.5)));
  ASSERT_EQ(t.order.size(), 40u);
  for (size_t r = 0; r < 20; r += 2)
    EXPECT_NE(t.order[2 * r], t.order[2 * r + 2])
        << "pair " << r / 2;  // A B then B A, or B A then A B
}

// Warm-up rounds after the first reuse its inputs: the hook runs before the first warm-up round
// (not counted) and before every counted round, never before the other warm-ups (a batch preset's
// 25 warm-up rounds each drew and uploaded fresh inputs for every launch of every side).
TEST(InterleavedProtocol, WarmupRoundsAfterTheFirstReuseItsInputs) {
  Script s;
  InterleavedProtocol p(timing(5, 4, 4, 0, 100), {}, s.clock(), 3);
  std::vector<bool> hooks;
  std::function<void(bool)> round = [&](bool counted) {
    hooks.push_back(counted);
    s.order.push_back(counted ? "|" : "w");
  };
  auto out = p.run(s.series("A", wobble(1, 0.5)), s.series("B", wobble(1, 0.5)), nullptr, &round);
  EXPECT_FALSE(out.failed) << out.stop_reason;
  EXPECT_EQ(hooks, (std::vector<bool>{false, true, true, true, true}));
  ASSERT_EQ(s.order.size(), 1u + 5 * 2 + 4 * 3);  // one hook, 5 warm-up rounds, 4 counted ones
  EXPECT_EQ(s.order[0], "w");
  for (size_t i = 1; i <= 10; ++i) EXPECT_NE(s.order[i], "|") << i;  // no hook between warm-ups
  EXPECT_EQ(s.order[11], "|");
  EXPECT_EQ(out.a.n, 4);
}

// A round's hook that throws fails the measurement with its text.
TEST(InterleavedProtocol, ARoundSetupThatThrowsAborts) {
  Script s;
  InterleavedProtocol p(timing(0, 3, 3, 0, 100), {}, s.clock());
  int rounds = 0;
  std::function<void(bool)> round = [&](bool) {
    if (++rounds == 2) throw std::runtime_error("cannot upload");
  };
  auto out = p.run(s.series("A", wobble(1, 0)), s.series("B", wobble(1, 0)), nullptr, &round);
  EXPECT_TRUE(out.failed);
  EXPECT_EQ(out.stop_reason, "round setup failed: cannot upload");
  EXPECT_EQ(s.order.size(), 2u);  // the first round's samples only
}

TEST(InterleavedProtocol, NoisySeriesStopAtMaxSamples) {
  Script s;
  InterleavedProtocol p(timing(1, 10, 40, 0.005, 1e9), {}, s.clock());
  auto out = p.run(s.series("A", wobble(1e-3, 1e-4)), s.series("B", wobble(1e-3, 1e-6)));
  EXPECT_TRUE(out.hit_max);
  EXPECT_FALSE(out.stopped_on_noise);
  EXPECT_EQ(out.a.n, 40);
  EXPECT_EQ(out.b.n, 40);  // both sides keep the same count
  EXPECT_NE(out.stop_reason.find("max samples 40"), std::string::npos) << out.stop_reason;
}

TEST(InterleavedProtocol, NoisySeriesStopAtBudget) {
  Script s;
  s.overhead = 0;
  // Rounds alternate 0.18 s and 0.22 s of fake wall time: 14 rounds take 2.80 s, 15 take 2.98 s,
  // so a 2.9 s budget stops after the 15th round (the 10 minimum come first).
  InterleavedProtocol p(timing(0, 10, 1000, 0.005, 2.9), {}, s.clock());
  auto out = p.run(s.series("A", wobble(0.1, 0.01)), s.series("B", counter_wobble(0.1, 0.01)));
  EXPECT_TRUE(out.hit_budget);
  EXPECT_EQ(out.a.n, 15);
  EXPECT_NE(out.stop_reason.find("time budget"), std::string::npos) << out.stop_reason;
}

TEST(InterleavedProtocol, BudgetNeverCutsBelowMinSamples) {
  Script s;
  InterleavedProtocol p(timing(0, 10, 1000, 0.005, 1e-9), {}, s.clock());
  auto out = p.run(s.series("A", wobble(1, 0.5)), s.series("B", counter_wobble(1, 0.5)));
  EXPECT_TRUE(out.hit_budget);
  EXPECT_EQ(out.a.n, 10);
}

TEST(InterleavedProtocol, NoiseFloorOfQuantizedTimer) {
  // 3.8 us kernels seen through a 0.5 us timer: samples land on 3.5 or 4.0 us; relative noise
  // stays ~6%, far above 0.5%, but stdev is within one tick, so more samples cannot help.
  // (B's ticks fall in another phase than A's, so their ratios stay spread too.)
  auto quantized = [](int i) { return i % 3 == 0 ? 3.5e-6 : 4.0e-6; };
  auto shifted = [](int i) { return i % 3 == 1 ? 3.5e-6 : 4.0e-6; };
  Script s1;
  InterleavedProtocol without(timing(0, 10, 500, 0.005, 1e9), {}, s1.clock());
  EXPECT_TRUE(without.run(s1.series("A", quantized), s1.series("B", shifted)).hit_max);
  Script s2;
  InterleavedProtocol with(timing(0, 10, 500, 0.005, 1e9), {0.5e-6}, s2.clock());
  auto out = with.run(s2.series("A", quantized), s2.series("B", shifted));
  EXPECT_TRUE(out.stopped_on_noise);
  EXPECT_EQ(out.a.n, 10);
}

// Noise both sides share (a clock that moves, a busy machine) cancels in each round's ratio: the
// speedup is known as soon as its interval is within the noise target, however noisy each
// series is on its own.
TEST(InterleavedProtocol, SharedNoiseStopsOnTheSpeedupInterval) {
  Script s;
  InterleavedProtocol p(timing(1, 10, 1000, 0.005, 1e9), {}, s.clock());
  auto a = [](int i) { return (i % 2 ? 1.2 : 0.8) * 1.5e-3; };
  auto b = [](int i) { return (i % 2 ? 1.2 : 0.8) * 1.0e-3; };
  auto out = p.run(s.series("A", a), s.series("B", b));
  EXPECT_TRUE(out.stopped_on_noise);
  EXPECT_FALSE(out.hit_budget || out.hit_max);
  EXPECT_EQ(out.a.n, 10);
  EXPECT_GT(out.a.noise, 0.1);  // each series alone is far from 0.5%
  EXPECT_NEAR(out.speedup.estimate, 1.5, 1e-9);
  EXPECT_NE(out.stop_reason.find("speedup interval +-0.00% <= 0.50% after 10 rounds"),
            std::string::npos)
      << out.stop_reason;
  // A calibration series must be as well known against A: an A' of its own noise keeps sampling.
  Script s2;
  InterleavedProtocol q(timing(0, 10, 40, 0.005, 1e9), {}, s2.clock());
  auto wild = s2.series("A'", counter_wobble(1.5e-3, 0.3e-3));
  auto calibrated = q.run(s2.series("A", a), s2.series("B", b), &wild);
  EXPECT_TRUE(calibrated.hit_max) << calibrated.stop_reason;
  EXPECT_EQ(calibrated.a.n, 40);
}

// Ratios that wander by a few percent narrow their interval as rounds accumulate: the rule stops
// once it is within the target, long before the series' own noise would allow.
TEST(InterleavedProtocol, TheSpeedupIntervalNarrowsWithRounds) {
  Script s;
  InterleavedProtocol p(timing(0, 10, 100000, 0.005, 1e9), {}, s.clock());
  auto a = [](int i) { return (i % 2 ? 1.2 : 0.8) * 2e-3 * (1 + 0.02 * std::sin(i * 1.7)); };
  auto b = [](int i) { return (i % 2 ? 1.2 : 0.8) * 1e-3; };
  auto out = p.run(s.series("A", a), s.series("B", b));
  EXPECT_TRUE(out.stopped_on_noise) << out.stop_reason;
  EXPECT_GT(out.a.n, 10);
  EXPECT_LT(out.a.n, 1000);
  EXPECT_NEAR(out.speedup.estimate, 2.0, 0.01);
  EXPECT_LE(out.speedup.relative_half_width(), 0.005);
}

TEST(InterleavedProtocol, OneNoisySideKeepsBothSampling) {
  Script s;
  InterleavedProtocol p(timing(0, 10, 1000, 0.005, 1e9), {}, s.clock());
  // A is quiet; B is noisy for its first 30 samples, then quiet.
  auto b = [](int i) { return i < 30 ? (i % 2 ? 1.2e-3 : 0.8e-3) : 1e-3; };
  auto out = p.run(s.series("A", wobble(1e-3, 1e-7)), s.series("B", b));
  EXPECT_TRUE(out.hit_max || out.stopped_on_noise);
  EXPECT_GT(out.b.n, 30);
  EXPECT_EQ(out.a.n, out.b.n);
}

TEST(InterleavedProtocol, FailedSampleAborts) {
  Script s;
  int calls = 0;
  std::function<Sample()> bad = [&] {
    return ++calls == 4 ? Sample{false, 0, "launch failed: out of bounds"} : Sample{true, 1e-3, ""};
  };
  InterleavedProtocol p(timing(1, 10, 100, 0.005, 1e9), {}, s.clock());
  auto out = p.run(s.series("A", wobble(1e-3, 0)), bad);
  EXPECT_TRUE(out.failed);
  EXPECT_EQ(out.stop_reason, "candidate sample failed: launch failed: out of bounds");
  EXPECT_EQ(out.speedup.estimate, 0);
  std::function<Sample()> warm_fail = [] { return Sample{false, 0, "boom"}; };
  auto w = p.run(warm_fail, s.series("B", wobble(1, 0)));
  EXPECT_EQ(w.stop_reason, "warmup: baseline sample failed: boom");
  std::function<Sample()> negative = [] { return Sample{true, -1, ""}; };
  EXPECT_TRUE(p.run(negative, negative).failed);
  std::function<Sample()> infinite = [] { return Sample{true, INFINITY, ""}; };
  std::string why = p.run(infinite, s.series("B", wobble(1, 0))).stop_reason;
  EXPECT_EQ(why, "warmup: baseline sample returned an invalid time (inf)");
}

// The calibration series A' (the baseline again) is a third series under the same rules.
TEST(InterleavedProtocol, CalibrationSeriesFollowsTheSameRules) {
  Script s;
  InterleavedProtocol p(timing(3, 10, 1000, 0.01, 1e9), {}, s.clock());
  auto again = s.series("A'", wobble(1e-3, 1e-6));
  auto out = p.run(s.series("A", wobble(1e-3, 1e-6)), s.series("B", wobble(1e-3, 1e-6)), &again);
  EXPECT_TRUE(out.stopped_on_noise);
  ASSERT_TRUE(out.calibration);
  EXPECT_EQ(out.calibration->n, 10);
  EXPECT_EQ(s.order.size(), 39u);  // 3 warmups and 10 samples of each of the three
  std::vector<std::string> first(s.order.begin(), s.order.begin() + 3);
  std::sort(first.begin(), first.end());
  EXPECT_EQ(first, (std::vector<std::string>{"A", "A'", "B"}));  // each once per round
  ASSERT_TRUE(out.calibration_ratio);
  EXPECT_NEAR(out.calibration_ratio->estimate, 1.0, 1e-9);
  // A noisy calibration series holds the measurement open like any other.
  Script s2;
  InterleavedProtocol noisy(timing(0, 5, 20, 0.01, 1e9), {}, s2.clock());
  auto wild = s2.series("A'", wobble(1, 0.5));
  EXPECT_TRUE(
      noisy.run(s2.series("A", wobble(1, 1e-6)), s2.series("B", wobble(1, 1e-6)), &wild).hit_max);
}

TEST(NoiseSatisfied, Rule) {
  Stats s = summarize(std::vector<double>{1.0, 1.1});
  EXPECT_FALSE(noise_satisfied(s, 0.005, {}));
  EXPECT_TRUE(noise_satisfied(s, 0.1, {}));
  EXPECT_TRUE(noise_satisfied(s, 0.005, {0.1}));
  EXPECT_FALSE(
      noise_satisfied(summarize(std::vector<double>{1.0}), 1, {}));  // one sample says nothing
}

}  // namespace
}  // namespace kta::engine
