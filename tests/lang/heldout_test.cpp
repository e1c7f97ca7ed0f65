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

}  // namespace
}  // namespace kta::lang::test
