#include "analyzers/shapes.h"

#include <gtest/gtest.h>

namespace kta::analyzers {
namespace {

TEST(ShapeSet, DirectValuesProductsAndQuotients) {
  ShapeSet s({{"N", {4096}}, {"M", {128}}});
  EXPECT_EQ(s.origin(4096), "N");
  EXPECT_EQ(s.origin(128), "M");
  EXPECT_EQ(s.origin(4096 * 128), "M*N");
  EXPECT_FALSE(s.origin(4097).has_value());
  // 4096 / 128 = 32: a small power of two is a tile size, not evidence of a shape.
  EXPECT_FALSE(s.origin(32).has_value());
  EXPECT_TRUE(s.is_direct(4096));
  EXPECT_FALSE(s.is_direct(4096 * 128));
}

TEST(ShapeSet, LargeQuotientCounts) {
  ShapeSet s({{"N", {1 << 20}}, {"M", {128}}});
  EXPECT_EQ(s.origin(8192), "N/M");
}

TEST(ShapeSet, TinyValuesAreIgnored) {
  ShapeSet s({{"B", {1, 2}}, {"N", {4096}}});
  EXPECT_FALSE(s.origin(1).has_value());
  EXPECT_FALSE(s.origin(2).has_value());
  EXPECT_EQ(s.origin(4096), "N");
}

TEST(ShapeSet, ValuesOfOneAxisDoNotMultiply) {
  ShapeSet s({{"N", {4096, 8192}}});
  EXPECT_FALSE(s.origin(4096LL * 8192).has_value());
  EXPECT_EQ(s.origin(4096LL * 4096), "N*N");
}

TEST(ShapeSet, AxisNamesMatchCaseInsensitively) {
  ShapeSet s({{"N", {4096}}});
  EXPECT_TRUE(s.is_axis_name("n"));
  EXPECT_TRUE(s.is_axis_name("N"));
  EXPECT_FALSE(s.is_axis_name("NN"));
}

TEST(ParseShapeSpec, AcceptsListsAndShifts) {
  std::map<std::string, std::vector<int64_t>> out;
  EXPECT_EQ(parse_shape_spec("N=4096|1<<20, M=2^7", out), "");
  EXPECT_EQ(out["N"], (std::vector<int64_t>{4096, 1 << 20}));
  EXPECT_EQ(out["M"], (std::vector<int64_t>{128}));
}

TEST(ParseShapeSpec, RejectsBadInput) {
  std::map<std::string, std::vector<int64_t>> out;
  EXPECT_EQ(parse_shape_spec("N", out), "bad --shape item 'N'; expected NAME=VALUE (e.g. N=4096)");
  EXPECT_EQ(parse_shape_spec("N=abc", out), "bad --shape value 'abc' for N; expected an integer");
  EXPECT_EQ(parse_shape_spec("1N=4", out), "bad --shape name '1N'; expected an identifier");
  EXPECT_EQ(parse_shape_spec("N=", out), "--shape N has no value");
  EXPECT_EQ(parse_shape_spec("N=-4", out), "--shape N has a negative value -4");
  EXPECT_EQ(parse_shape_spec("N=1<<99", out),
            "bad --shape value '1<<99' for N; expected an integer");
  EXPECT_EQ(parse_shape_spec("", out), "empty --shape value; expected NAME=VALUE[,NAME=VALUE...]");
}

}  // namespace
}  // namespace kta::analyzers
