// Issue 16's data features in the front end: u32/u64 tensors, inf/-inf/nan literals, and the
// categorical, power_law and mixture distributions lowered to the model with their arguments in
// declaration order; bad arguments are reported where they are written.
#include <gtest/gtest.h>

#include <cmath>

#include "lang/format.h"
#include "support.h"

namespace kta::lang::test {
namespace {

struct DataFeatures : ::testing::Test {
  TempDir dir;
  std::string out;
  void SetUp() override { dir.write("k.hip", "__global__ void k() {}\n"); }

  // A task whose input `a` (of `dtype`) is initialized by `init`; the kernel takes a, y and N.
  std::optional<Loaded> check(const std::string& dtype, const std::string& init,
                              const std::string& shapes = "N in [1024]") {
    std::string text =
        "import std.tolerances\n"
        "import std.inputs\n"
        "\n"
        "task t {\n"
        "  kind hip2hip\n"
        "  param N: i64\n"
        "  input a: " +
        dtype + "[N] = " + init +
        "\n"
        "  output y: f32[N]\n"
        "  reference hip \"k.hip\" kernel ref(a, y, N) grid ceil_div(N, 256) block 256\n"
        "  baseline hip \"k.hip\" kernel base(a, y, N) grid ceil_div(N, 256) block 256\n"
        "  shapes visible { " +
        shapes +
        " }\n"
        "  tolerance y = std.tolerances.f32_strict\n"
        "}\n";
    return load(dir.write("t.kta", text), out);
  }
  const model::Distribution& init_of(const std::optional<Loaded>& r) {
    return *r->tasks[0].tensors[0].init;
  }
};

TEST_F(DataFeatures, UnsignedDtypesLower) {
  auto r = check("u32", "std.inputs.integers(hi: 7)");
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(r->tasks[0].tensors[0].dtype, model::DType::u32);
  r = check("u64", "std.inputs.integers(lo: 0, hi: 1 << 40)");
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(r->tasks[0].tensors[0].dtype, model::DType::u64);
  EXPECT_STREQ(model::hip_c_type(model::DType::u64), "uint64_t");
  EXPECT_STREQ(model::hip_c_type(model::DType::u32), "uint32_t");
}

TEST_F(DataFeatures, NegativeValuesDoNotFitAnUnsignedTensor) {
  EXPECT_FALSE(check("u32", "std.inputs.integers(lo: -1, hi: 7)"));
  EXPECT_NE(out.find("argument 'lo' of 'std.inputs.integers' gives values in [-1, 6], which do "
                     "not fit the u32 tensor 'a'"),
            std::string::npos)
      << out;
}

TEST_F(DataFeatures, UnsignedTensorsRefuseNegativeDistributions) {
  EXPECT_FALSE(check("u64", "std.inputs.normal()"));
  EXPECT_NE(out.find("'std.inputs.normal' cannot fill the u64 tensor 'a': it draws negative "
                     "values (use integers, categorical or power_law)"),
            std::string::npos)
      << out;
}

TEST_F(DataFeatures, InfAndNanInitializeFloatingTensors) {
  auto r = check("f32", "std.inputs.constant(value: -inf)");
  ASSERT_TRUE(r) << out;
  double v = init_of(r).arg("value")->numbers.at(0);
  EXPECT_TRUE(std::isinf(v) && v < 0);
  r = check("f64", "std.inputs.constant(value: inf)");
  ASSERT_TRUE(r) << out;
  EXPECT_TRUE(std::isinf(init_of(r).arg("value")->numbers.at(0)));
  r = check("f16", "std.inputs.constant(value: nan)");
  ASSERT_TRUE(r) << out;
  EXPECT_TRUE(std::isnan(init_of(r).arg("value")->numbers.at(0)));
}

TEST_F(DataFeatures, InfIsRejectedWhereItMeansNothing) {
  EXPECT_FALSE(check("i32", "std.inputs.constant(value: -inf)"));
  EXPECT_NE(out.find("t.kta:7:48: error: argument 'value' of 'std.inputs.constant' is -inf, "
                     "which does not fit the i32 tensor 'a'"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("f32", "std.inputs.normal(mean: inf)"));
  EXPECT_NE(out.find("argument 'mean' of 'std.inputs.normal' must be finite, found inf"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("f32", "std.inputs.normal()", "N in [1024, inf]"));
  EXPECT_NE(out.find("must be an integer, found a number"), std::string::npos) << out;
}

TEST_F(DataFeatures, ArgumentsKeepDeclarationOrder) {
  auto r = check("f32", "std.inputs.normal(std: 2, mean: 1)");
  ASSERT_TRUE(r) << out;
  const model::Distribution& d = init_of(r);
  ASSERT_EQ(d.args.size(), 2u);
  EXPECT_EQ(d.args[0].name, "mean");
  EXPECT_EQ(d.args[1].name, "std");
  EXPECT_EQ(d.args[1].numbers, std::vector<double>{2});
}

TEST_F(DataFeatures, CategoricalLowersItsLists) {
  auto r = check("u8", "std.inputs.categorical(weights: [8, 1, 0.5, 0])");
  ASSERT_TRUE(r) << out;
  const model::Distribution& d = init_of(r);
  EXPECT_EQ(d.name, "categorical");
  ASSERT_EQ(d.args.size(), 2u);
  EXPECT_TRUE(d.args[0].is_list);
  EXPECT_EQ(d.args[0].numbers, (std::vector<double>{8, 1, 0.5, 0}));
  EXPECT_TRUE(d.args[1].is_list);
  EXPECT_TRUE(d.args[1].numbers.empty());  // default: the indices
  r = check("f32", "std.inputs.categorical(weights: [1, 3], values: [-0.5, 2])");
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(init_of(r).args[1].numbers, (std::vector<double>{-0.5, 2}));
}

TEST_F(DataFeatures, CategoricalArgumentsAreChecked) {
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: [1, -2])"));
  EXPECT_NE(out.find("t.kta:7:57: error: argument 'weights' of 'std.inputs.categorical' must "
                     "hold finite weights >= 0, found -2 (item 2)"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: [0, 0])"));
  EXPECT_NE(out.find("must have a weight > 0"), std::string::npos) << out;
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: [])"));
  EXPECT_NE(out.find("must not be empty"), std::string::npos) << out;
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: 3)"));
  EXPECT_NE(out.find("argument 'weights' of 'std.inputs.categorical' must be a list of numbers, "
                     "found an integer"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: [1, \"x\"])"));
  EXPECT_NE(out.find("item 2 of argument 'weights' of 'std.inputs.categorical' must be a number"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: [1, 1], values: [3])"));
  EXPECT_NE(out.find("must have one value per weight (2), found 1"), std::string::npos) << out;
  EXPECT_FALSE(check("u8", "std.inputs.categorical(weights: [1, 1], values: [3, 256])"));
  EXPECT_NE(out.find("argument 'values' of 'std.inputs.categorical' has 256 (item 2), which does "
                     "not fit the u8 tensor 'a'"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("i32", "std.inputs.categorical(weights: [1, 1], values: [3, 0.5])"));
  EXPECT_NE(out.find("must be integers for the i32 tensor 'a', found 0.5"), std::string::npos)
      << out;
}

TEST_F(DataFeatures, PowerLawArgumentsAreChecked) {
  auto r = check("i32", "std.inputs.power_law(alpha: 1.1, hi: 50000)");
  ASSERT_TRUE(r) << out;
  const model::Distribution& d = init_of(r);
  ASSERT_EQ(d.args.size(), 3u);
  EXPECT_EQ(d.args[0].name, "alpha");
  EXPECT_EQ(d.args[1].name, "lo");
  EXPECT_EQ(d.args[2].numbers, std::vector<double>{50000});
  EXPECT_FALSE(check("i32", "std.inputs.power_law(alpha: 0, hi: 10)"));
  EXPECT_NE(out.find("argument 'alpha' of 'std.inputs.power_law' must be > 0, found 0"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("i32", "std.inputs.power_law(lo: 10, hi: 10)"));
  EXPECT_NE(out.find("argument 'hi' of 'std.inputs.power_law' must be > lo (10), found 10"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check("u8", "std.inputs.power_law(hi: 1000)"));
  EXPECT_NE(out.find("gives values in [0, 999], which do not fit the u8 tensor 'a'"),
            std::string::npos)
      << out;
}

TEST_F(DataFeatures, MixtureLowersItsComponents) {
  auto r = check("f32",
                 "std.inputs.mixture(components: [std.inputs.normal(), "
                 "std.inputs.constant(value: 100)], weights: [0.99, 0.01])");
  ASSERT_TRUE(r) << out;
  const model::Distribution& d = init_of(r);
  ASSERT_EQ(d.args.size(), 2u);
  ASSERT_EQ(d.args[0].components.size(), 2u);
  EXPECT_EQ(d.args[0].components[0].name, "normal");
  EXPECT_EQ(d.args[0].components[1].arg("value")->numbers, std::vector<double>{100});
  EXPECT_EQ(d.args[1].numbers, (std::vector<double>{0.99, 0.01}));
}

TEST_F(DataFeatures, MixtureArgumentsAreChecked) {
  EXPECT_FALSE(check("f32", "std.inputs.mixture(components: [])"));
  EXPECT_NE(out.find("argument 'components' of 'std.inputs.mixture' must not be empty"),
            std::string::npos)
      << out;
  EXPECT_FALSE(
      check("f32", "std.inputs.mixture(components: [std.inputs.normal()], weights: [1, 2])"));
  EXPECT_NE(out.find("must have one weight per component (1), found 2"), std::string::npos) << out;
  EXPECT_FALSE(check("f32", "std.inputs.mixture(components: [std.inputs.normal(), 3])"));
  EXPECT_NE(out.find("item 2 of argument 'components' of 'std.inputs.mixture' must be a "
                     "distribution such as std.inputs.normal(), found an integer"),
            std::string::npos)
      << out;
  // A component is checked against the tensor like the whole.
  EXPECT_FALSE(check("i8", "std.inputs.mixture(components: [std.inputs.integers(hi: 1000)])"));
  EXPECT_NE(out.find("gives values in [0, 999], which do not fit the i8 tensor 'a'"),
            std::string::npos)
      << out;
}

TEST(DataFeaturesFormat, NewFeaturesRoundTrip) {
  std::string text =
      "task t {\n"
      "  input  h: u32[N] = std.inputs.categorical(weights: [8, 1, 1], values: [0, 5, 9])\n"
      "  input  k: u64[N] = std.inputs.power_law(alpha: 1.1, lo: 0, hi: 50000)\n"
      "  input  x: f32[N] = std.inputs.mixture(components: [std.inputs.normal(), "
      "std.inputs.constant(value: nan)], weights: [0.9, 0.1])\n"
      "  inout  m: f32[N] = std.inputs.constant(value: -inf)\n"
      "  inout  p: f64[N] = std.inputs.constant(value: inf)\n"
      "}\n";
  SourceManager sm;
  DiagnosticEngine d(sm);
  auto once = format_source(sm.add("a.kta", "a.kta", text), d);
  ASSERT_TRUE(once) << d.str();
  for (const char* word : {"u32[N]", "u64[N]", "value: -inf", "value: inf", "value: nan",
                           "weights: [8, 1, 1]", "components: [std.inputs.normal()"})
    EXPECT_NE(once->find(word), std::string::npos) << word << " in\n" << *once;
  auto twice = format_source(sm.add("b.kta", "b.kta", *once), d);
  ASSERT_TRUE(twice) << d.str();
  EXPECT_EQ(*once, *twice);
}

}  // namespace
}  // namespace kta::lang::test
