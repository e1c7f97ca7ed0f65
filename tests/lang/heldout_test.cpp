// Held-out generation: deterministic per (task, secret), never a visible point, within filters.
#include "lang/heldout.h"

#include <gtest/gtest.h>

#include <set>

#include "lang/grid.h"
#include "support.h"

namespace kta::lang::test {
namespace {

struct HeldoutTest : ::testing::Test {
  TempDir dir;
  std::string out;
  model::Task task(const std::string& params, const std::string& shapes, int count) {
    dir.write("k.hip", "");
    std::string text = task_text(
        "  shapes heldout = std.heldout.perturb(visible, count: " + std::to_string(count) + ")\n",
        shapes);
    text.replace(text.find("  param N: i64\n"), 15, "  param N: i64\n" + params);
    auto r = load(dir.write("t.kta", text), out);
    EXPECT_TRUE(r) << out;
    return r ? r->tasks.at(0) : model::Task{};
  }
};

TEST_F(HeldoutTest, DeterministicForTaskAndSecret) {
  auto t = task("", "shapes visible { N in [1024, 4096, 1 << 20] }", 8);
  ASSERT_TRUE(t.heldout_generator);
  EXPECT_EQ(t.heldout_generator->count, 8);
  auto a = expand_heldout(t, 42), b = expand_heldout(t, 42), c = expand_heldout(t, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a.size(), 8u);
}

TEST_F(HeldoutTest, NeverAVisiblePointAndNoRepeats) {
  auto t = task("  param M: i64\n", "shapes visible { M in [1, 2, 3, 4]; N in [1, 2, 3, 4] }", 20);
  for (uint64_t secret = 0; secret < 50; ++secret) {
    auto points = expand_heldout(t, secret);
    std::set<model::ShapePoint> seen;
    for (const auto& p : points) {
      EXPECT_EQ(std::find(t.visible.begin(), t.visible.end(), p), t.visible.end()) << point_text(p);
      EXPECT_TRUE(seen.insert(p).second) << "repeated " << point_text(p);
      ASSERT_EQ(p.size(), 2u);
      for (const auto& [name, value] : p) EXPECT_GE(value, 1);
    }
  }
}

TEST_F(HeldoutTest, DerivedParamsAreRecomputedAndFiltersHold) {
  auto t = task(
      "  param K: i64\n",
      "shapes visible {\n    N in [256, 512, 1024]\n    K = N * 2\n    where N % 2 == 0\n  }", 10);
  auto points = expand_heldout(t, 7);
  EXPECT_FALSE(points.empty());
  for (const auto& p : points) {
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[1].second, p[0].second * 2) << point_text(p);
    EXPECT_EQ(p[0].second % 2, 0) << point_text(p);
  }
}

TEST_F(HeldoutTest, ExplicitPointsPassThrough) {
  dir.write("k.hip", "");
  auto r = load(dir.write("t.kta", task_text("  shapes heldout { N in [7, 9] }\n")), out);
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(expand_heldout(r->tasks[0], 1).size(), 2u);
  EXPECT_EQ(expand_heldout(r->tasks[0], 1), expand_heldout(r->tasks[0], 2));
}

// A tuple axis moves as one unit: every member gets the same edge value, factor or offset. With
// N pinned by a filter only the tuple can move, so every point is the visible (4, 8) under one
// move applied to both members.
TEST_F(HeldoutTest, TupleAxisMovesAsOneUnit) {
  auto t = task(
      "  param D: i64\n  param H: i64\n",
      "shapes visible {\n    N in [1024]\n    (D, H) in [(4, 8)]\n    where N == 1024\n  }", 8);
  ASSERT_TRUE(t.heldout_generator);
  ASSERT_EQ(t.heldout_generator->tuples.size(), 1u);
  size_t drawn = 0;
  for (uint64_t secret = 0; secret < 40; ++secret) {
    for (const auto& p : expand_heldout(t, secret)) {
      ++drawn;
      ASSERT_EQ(p.size(), 3u);
      EXPECT_EQ(p[0].second, 1024) << point_text(p);
      int64_t d = p[1].second, h = p[2].second;
      bool edge = d == h;
      bool scaled = (d == 4 * 2 && h == 8 * 2) || (d == 4 * 3 && h == 8 * 3) ||
                    (d == 4 * 4 && h == 8 * 4) || (d == 2 && h == 4) || (d == 1 && h == 2);
      bool offset = h - d == 4;         // the same offset on both
      bool clamped = d == 1 && h <= 8;  // the same offset down, D clamped at 1
      bool primes = d == 5 && h == 11;  // each member's next prime
      EXPECT_TRUE(edge || scaled || offset || clamped || primes) << point_text(p);
    }
  }
  EXPECT_GT(drawn, 40u);
}

// The preview runs the generator's own moves over every choice: whatever the secret, each drawn
// point is one of its points, and the ranges bound every drawn value.
TEST_F(HeldoutTest, PreviewHoldsEveryDraw) {
  auto t = task("  param M: i64\n  param D: i64\n  param H: i64\n",
                "shapes visible {\n    M in [64, 100]\n    N in [1024]\n"
                "    (D, H) in [(3, 5), (17, 33)]\n    where M <= 2 * N\n  }",
                12);
  auto preview = preview_heldout(t);
  ASSERT_TRUE(preview);
  EXPECT_FALSE(preview->truncated);
  std::set<model::ShapePoint> all(preview->points.begin(), preview->points.end());
  for (uint64_t secret = 0; secret < 60; ++secret)
    for (const auto& p : expand_heldout(t, secret)) {
      EXPECT_TRUE(all.count(p)) << point_text(p) << " was drawn but not previewed";
      for (size_t i = 0; i < p.size(); ++i) {
        ASSERT_EQ(preview->ranges[i].param, p[i].first);
        EXPECT_GE(p[i].second, preview->ranges[i].lo);
        EXPECT_LE(p[i].second, preview->ranges[i].hi);
      }
    }
  for (const auto& p : preview->points)
    EXPECT_EQ(std::find(t.visible.begin(), t.visible.end(), p), t.visible.end());
}

// Ranges follow the rules: from one value 1024, edge reaches 1, scale-up ×4 reaches 4096. With
// count 2 only the first two moves (edge, scale-up) ever run, so scale-down's 256 is not drawn.
TEST_F(HeldoutTest, PreviewRangesFollowTheMoves) {
  auto t = task("", "shapes visible { N in [1024] }", 8);
  auto preview = preview_heldout(t);
  ASSERT_TRUE(preview);
  ASSERT_EQ(preview->ranges.size(), 1u);
  EXPECT_EQ(preview->ranges[0].lo, 1);
  EXPECT_EQ(preview->ranges[0].hi, 4096);
  auto has = [&](const lang::HeldoutPreview& pv, int64_t v) {
    return std::find(pv.points.begin(), pv.points.end(), model::ShapePoint{{"N", v}}) !=
           pv.points.end();
  };
  EXPECT_TRUE(has(*preview, 256));   // scale-down by 4
  EXPECT_TRUE(has(*preview, 1031));  // the next prime
  EXPECT_TRUE(has(*preview, 1023));  // asymmetric with one param: ±1
  EXPECT_FALSE(has(*preview, 1022));
  auto two = preview_heldout(task("", "shapes visible { N in [1024] }", 2));
  ASSERT_TRUE(two);
  EXPECT_FALSE(has(*two, 256));
  EXPECT_TRUE(has(*two, 4096));
  EXPECT_EQ(two->points.size(), 7u + 3u);  // seven edge values, three factors
}

TEST_F(HeldoutTest, NoPreviewForExplicitPoints) {
  dir.write("k.hip", "");
  auto r = load(dir.write("t.kta", task_text("  shapes heldout { N in [7, 9] }\n")), out);
  ASSERT_TRUE(r) << out;
  EXPECT_FALSE(preview_heldout(r->tasks[0]));
}

}  // namespace
}  // namespace kta::lang::test
