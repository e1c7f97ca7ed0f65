#include "engine/score/score.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kta::engine {
namespace {

TaskOutcome task(std::string name, std::string kind, bool compiled, bool correct, double speedup) {
  TaskOutcome t;
  t.task = std::move(name);
  t.kind = std::move(kind);
  t.agent = "replay";
  t.compiled = compiled;
  t.correct = correct;
  t.fast_enough = correct && speedup >= 1;
  t.speedup = speedup;
  return t;
}

void heldout(TaskOutcome& t, bool baseline_ok, bool ok, std::optional<double> speedup) {
  t.baseline_heldout_correct = baseline_ok;
  t.heldout_correct = ok;
  t.heldout_speedup = speedup;
  t.quadrant = heldout_quadrant(baseline_ok, ok);
}

// Five tasks, every figure computed by hand:
//   A hip2hip   correct 2.0x, held-out correct 1.5x (baseline passes)   -> both pass
//   B hip2hip   correct 1.2x, held-out wrong (baseline passes)          -> candidate regresses
//   C triton    compiled, wrong
//   D hip2hip   compile failure
//   E triton    correct 0.5x, no held-out run
std::vector<TaskOutcome> five() {
  std::vector<TaskOutcome> v = {
      task("A", "hip2hip", true, true, 2.0), task("B", "hip2hip", true, true, 1.2),
      task("C", "triton2triton", true, false, 0), task("D", "hip2hip", false, false, 0),
      task("E", "triton2triton", true, true, 0.5)};
  heldout(v[0], true, true, 1.5);
  heldout(v[1], true, false, std::nullopt);
  return v;
}

TEST(Score, RunFigures) {
  auto tasks = five();
  RunScore s = score(tasks);
  EXPECT_EQ(s.tasks, 5);
  EXPECT_EQ(s.compiled, 4);
  EXPECT_EQ(s.correct, 3);
  EXPECT_DOUBLE_EQ(s.correctness_rate, 0.6);
  EXPECT_DOUBLE_EQ(s.fast_p.at(0.0), 0.6);  // A B E
  EXPECT_DOUBLE_EQ(s.fast_p.at(1.0), 0.4);  // A B
  EXPECT_DOUBLE_EQ(s.fast_p.at(1.5), 0.2);  // A
  EXPECT_DOUBLE_EQ(s.fast_p.at(2.0), 0.0);  // strictly greater than 2: none
  ASSERT_TRUE(s.geomean_speedup);
  EXPECT_DOUBLE_EQ(*s.geomean_speedup, std::cbrt(2.0 * 1.2 * 0.5));  // correct tasks only
  EXPECT_EQ(s.heldout_evaluated, 2);
  EXPECT_DOUBLE_EQ(*s.heldout_retention, 0.5);
  EXPECT_DOUBLE_EQ(*s.speedup_transfer, 0.75);  // A: 1.5 / 2.0
  EXPECT_DOUBLE_EQ(s.aka_score, (320 + 240 + 20 + 0 + 170) / 5.0);
  EXPECT_EQ(s.quadrants.at("both pass"), 1);
  EXPECT_EQ(s.quadrants.at("candidate regresses"), 1);
  EXPECT_EQ(s.quadrants.size(), 2u);
}

TEST(Score, PerKind) {
  auto tasks = five();
  RunScore s = score(tasks);
  ASSERT_EQ(s.by_kind.size(), 2u);
  const ScoreSummary& hip = s.by_kind.at("hip2hip");
  EXPECT_EQ(hip.tasks, 3);
  EXPECT_EQ(hip.correct, 2);
  EXPECT_DOUBLE_EQ(hip.correctness_rate, 2.0 / 3);
  EXPECT_DOUBLE_EQ(*hip.geomean_speedup, std::sqrt(2.4));
  EXPECT_DOUBLE_EQ(hip.aka_score, (320 + 240 + 0) / 3.0);
  const ScoreSummary& triton = s.by_kind.at("triton2triton");
  EXPECT_EQ(triton.tasks, 2);
  EXPECT_DOUBLE_EQ(triton.aka_score, 95);
  EXPECT_FALSE(triton.heldout_retention.has_value());
  EXPECT_FALSE(triton.speedup_transfer.has_value());
}

TEST(Score, AkaTaskScore) {
  EXPECT_EQ(aka_task_score(task("x", "k", false, false, 3)), 0);
  EXPECT_EQ(aka_task_score(task("x", "k", true, false, 3)), 20);
  EXPECT_EQ(aka_task_score(task("x", "k", true, true, 1.5)), 270);
}

TEST(Score, Quadrants) {
  EXPECT_EQ(heldout_quadrant(true, true), "both pass");
  EXPECT_EQ(heldout_quadrant(true, false), "candidate regresses");
  EXPECT_EQ(heldout_quadrant(false, false), "both fail");
  EXPECT_EQ(heldout_quadrant(false, true), "candidate improves");
}

TEST(Score, FailuresAreCountedNotDropped) {
  std::vector<TaskOutcome> v = {task("A", "hip2hip", true, true, 2.0),
                                task("crash", "hip2hip", false, false, 0)};
  RunScore s = score(v);
  EXPECT_EQ(s.tasks, 2);
  EXPECT_DOUBLE_EQ(s.correctness_rate, 0.5);
  EXPECT_DOUBLE_EQ(s.fast_p.at(1.0), 0.5);
  EXPECT_DOUBLE_EQ(s.aka_score, 160);
}

TEST(Score, EmptyAndAllFailing) {
  RunScore e = score(std::vector<TaskOutcome>{});
  EXPECT_EQ(e.tasks, 0);
  EXPECT_EQ(e.correctness_rate, 0);
  EXPECT_FALSE(e.geomean_speedup.has_value());
  EXPECT_EQ(e.fast_p.size(), 4u);
  std::vector<TaskOutcome> bad = {task("A", "k", true, false, 0)};
  RunScore b = score(bad);
  EXPECT_FALSE(b.geomean_speedup.has_value());
  EXPECT_EQ(b.aka_score, 20);
}

}  // namespace
}  // namespace kta::engine
