// Grid expansion: lists, range, pow2, cartesian products, derived axes, where filters and the cap.
#include "lang/grid.h"

#include <gtest/gtest.h>

#include "support.h"

namespace kta::lang::test {
namespace {

NameLookup none() {
  return [](const std::string&) -> std::optional<model::Value> { return std::nullopt; };
}

TEST(Grid, RangeAndPow2) {
  EXPECT_EQ(range_values(0, 10, 3, 100), (std::vector<int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(range_values(10, 0, -4, 100), (std::vector<int64_t>{10, 6, 2}));
  EXPECT_TRUE(range_values(5, 1, 1, 100).empty());
  EXPECT_TRUE(range_values(0, 10, 0, 100).empty());
  EXPECT_THROW(range_values(0, 1000, 1, 10), EvalError);
  EXPECT_EQ(pow2_values(2, 5), (std::vector<int64_t>{4, 8, 16, 32}));
  EXPECT_TRUE(pow2_values(5, 2).empty());
  EXPECT_TRUE(pow2_values(0, 63).empty());
}

TEST(Grid, CartesianProductInDeclarationOrder) {
  GridSpec spec;
  spec.axes.push_back({"M", true, {1, 2}, nullptr});
  spec.axes.push_back({"N", true, {10, 20, 30}, nullptr});
  auto points = expand_grid(spec, none(), 100);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(point_text(points[0]), "M=1, N=10");
  EXPECT_EQ(point_text(points[1]), "M=1, N=20");
  EXPECT_EQ(point_text(points[5]), "M=2, N=30");
}

// A tuple axis is one digit of the odometer: its tuples, not the product of its members.
TEST(Grid, TupleAxisIsOneDigitOfTheProduct) {
  GridSpec spec;
  spec.axes.push_back({"N", true, {1, 2}, nullptr});
  GridAxis box;
  box.members = {"D", "H", "W"};
  box.tuples = {{3, 5, 7}, {17, 33, 65}};
  spec.axes.push_back(box);
  auto points = expand_grid(spec, none(), 100);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(point_text(points[0]), "N=1, D=3, H=5, W=7");
  EXPECT_EQ(point_text(points[1]), "N=1, D=17, H=33, W=65");
  EXPECT_EQ(point_text(points[3]), "N=2, D=17, H=33, W=65");
  box.tuples.assign(60, {1, 2, 3});
  spec.axes[1] = box;
  spec.axes[0].values.assign(2, 1);
  EXPECT_THROW(expand_grid(spec, none(), 100), GridTooLarge);  // 2 x 60 tuples > 100
}

TEST(Grid, CapIsCheckedBeforeExpanding) {
  GridSpec spec;
  std::vector<int64_t> many(1000);
  spec.axes.push_back({"A", true, many, nullptr});
  spec.axes.push_back({"B", true, many, nullptr});
  spec.axes.push_back({"C", true, many, nullptr});
  EXPECT_THROW(expand_grid(spec, none(), 10000), GridTooLarge);
}

struct GridTaskTest : ::testing::Test {
  TempDir dir;
  std::string out;
  void SetUp() override { dir.write("k.hip", ""); }
  std::optional<Loaded> grid(const std::string& params, const std::string& shapes,
                             LoadOptions o = fixture_options()) {
    std::string text = task_text("", shapes);
    text.replace(text.find("  param N: i64\n"), 15, "  param N: i64\n" + params);
    return load(dir.write("t.kta", text), out, o);
  }
};

TEST_F(GridTaskTest, DerivedAxesAndWhereFilters) {
  auto r = grid("  param M: i64\n  param K: i64\n",
                "shapes visible {\n    M in [1, 2, 4]\n    N in pow2(1..3)\n    K = M * N\n    "
                "where K <= 8\n    where M != N\n  }");
  ASSERT_TRUE(r) << out;
  const auto& v = r->tasks[0].visible;
  // (M, N): (1,2) (1,4) (1,8) (2,4) (4,2) — (2,2) and (4,4) fail M != N; (2,8) (4,8) exceed K <= 8
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(point_text(v[0]), "M=1, N=2, K=2");
  EXPECT_EQ(point_text(v[4]), "M=4, N=2, K=8");
}

TEST_F(GridTaskTest, HelperAxesAreNotInThePoints) {
  auto r = grid("", "shapes visible { L in [3]; N = L * 1024 }");
  ASSERT_FALSE(r);  // L is not a param: value axes must bind params
  EXPECT_NE(out.find("axis 'L' is not a shape param of task 't'"), std::string::npos) << out;
  r = grid("", "shapes visible { N in [2, 3]; H = N * 2; where H > 4 }");
  ASSERT_TRUE(r) << out;
  ASSERT_EQ(r->tasks[0].visible.size(), 1u);
  EXPECT_EQ(point_text(r->tasks[0].visible[0]), "N=3");
}

TEST_F(GridTaskTest, CapErrorAndEmptyGrid) {
  auto o = fixture_options();
  o.max_grid_points = 50;
  EXPECT_FALSE(
      grid("  param M: i64\n", "shapes visible { M in range(0, 10); N in range(0, 10) }", o));
  EXPECT_NE(out.find("error: grid 'visible' expands to more than 50 points"), std::string::npos)
      << out;
  EXPECT_FALSE(grid("", "shapes visible { N in [1, 2]; where N > 5 }"));
  EXPECT_NE(out.find("error: grid 'visible' has no points"), std::string::npos) << out;
}

TEST_F(GridTaskTest, EveryShapeParamMustBeBound) {
  EXPECT_FALSE(grid("  param M: i64\n", "shapes visible { N in [1] }"));
  EXPECT_NE(out.find("grid 'visible' does not bind shape param 'M'"), std::string::npos) << out;
}

}  // namespace
}  // namespace kta::lang::test
