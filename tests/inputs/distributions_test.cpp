// Issue 16's input data: u32/u64 tensors, the categorical, power-law and mixture distributions
// (frequencies, determinism per seed, slices equal to the whole, argument errors) and the
// non-finite constants an inout may start from.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "engine/check/poison.h"
#include "engine/inputs/generate.h"
#include "engine/inputs/portable_math.h"
#include "inputs_test_support.h"

namespace kta::engine {
namespace {

using model::DType;
using test::draw;
using test::expect_error;
using test::kPoint;
using test::tensor;

model::DistributionArg number(std::string name, double v) {
  return {std::move(name), {v}, false, {}};
}
model::DistributionArg list(std::string name, std::vector<double> v) {
  return {std::move(name), std::move(v), true, {}};
}

model::Distribution make(std::string name, std::vector<model::DistributionArg> args) {
  return {std::move(name), std::move(args), {}};
}

model::Distribution categorical(std::vector<double> weights, std::vector<double> values = {}) {
  return make("categorical",
              {list("weights", std::move(weights)), list("values", std::move(values))});
}

model::Distribution power_law(double alpha, double lo, double hi) {
  return make("power_law", {number("alpha", alpha), number("lo", lo), number("hi", hi)});
}

model::Distribution mixture(std::vector<model::Distribution> parts, std::vector<double> weights) {
  model::DistributionArg c{"components", {}, true, std::move(parts)};
  return make("mixture", {std::move(c), list("weights", std::move(weights))});
}

std::map<double, size_t> histogram(const HostTensor& t) {
  std::map<double, size_t> h;
  for (size_t i = 0; i < t.numel(); ++i) h[element_as_double(t, i)]++;
  return h;
}

TEST(UnsignedDtypes, SizesNamesAndRoundTrips) {
  EXPECT_EQ(dtype_size(DType::u32), 4u);
  EXPECT_EQ(dtype_size(DType::u64), 8u);
  EXPECT_STREQ(dtype_name(DType::u32), "u32");
  EXPECT_STREQ(dtype_name(DType::u64), "u64");
  HostTensor t = HostTensor::zeros(DType::u64, {3});
  set_element(t, 0, 0x1p63);  // above int64's range
  set_element(t, 1, -5);      // saturates at 0
  set_element(t, 2, 1e30);    // saturates at 2^64 - 1
  uint64_t raw[3];
  std::memcpy(raw, t.bytes.data(), sizeof raw);
  EXPECT_EQ(raw[0], uint64_t{1} << 63);
  EXPECT_EQ(raw[1], 0u);
  EXPECT_EQ(raw[2], std::numeric_limits<uint64_t>::max());
  HostTensor u = HostTensor::zeros(DType::u32, {2});
  double in[2] = {4294967295.0, 4294967296.0};
  store_elements(u, 0, 2, in);
  double back[2];
  load_elements(u, 0, 2, back);
  EXPECT_EQ(back[0], 4294967295.0);
  EXPECT_EQ(back[1], 4294967295.0);  // saturated
}

TEST(UnsignedDtypes, IntegersFillThemAndRangesAreChecked) {
  auto ints = [](double lo, double hi) {
    return make("integers", {number("lo", lo), number("hi", hi)});
  };
  HostTensor t = draw(DType::u32, ints(4000000000.0, 4000000010.0), 1000);
  for (size_t i = 0; i < t.numel(); ++i) {
    double v = element_as_double(t, i);
    ASSERT_GE(v, 4000000000.0);
    ASSERT_LT(v, 4000000010.0);
  }
  HostTensor big = draw(DType::u64, ints(0x1p62, 0x1p62 + 1000), 100);
  uint64_t first;
  std::memcpy(&first, big.bytes.data(), 8);
  EXPECT_GE(first, uint64_t{1} << 62);
  expect_error(ints(-1, 3), DType::u32, "integers: values in [-1, 2] do not fit u32");
  expect_error(ints(0, 0x1p32 + 1), DType::u32,
               "integers: values in [0, 4294967296] do not fit u32");
  expect_error(make("normal", {}), DType::u32,
               "normal: draws negative values, which u32 cannot hold");
  expect_error(make("uniform", {number("lo", -1), number("hi", 1)}), DType::u64,
               "uniform: lo (-1) is negative, which u64 cannot hold");
  HostTensor b = draw(DType::u64, make("bernoulli", {number("p", 0.5)}), 64);
  EXPECT_EQ(histogram(b).size(), 2u);
}

TEST(NonFinite, ConstantFillsFloatsWithInfAndNan) {
  const double inf = std::numeric_limits<double>::infinity();
  HostTensor m = draw(DType::f32, make("constant", {number("value", -inf)}), 9);
  HostTensor n = draw(DType::f16, make("constant", {number("value", std::nan(""))}), 9);
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(element_as_double(m, i), -inf);
    EXPECT_TRUE(std::isnan(element_as_double(n, i)));
  }
  expect_error(make("constant", {number("value", -inf)}), DType::i32,
               "constant: value -inf does not fit i32");
  expect_error(make("constant", {number("value", std::nan(""))}), DType::u8,
               "constant: value nan does not fit u8");
  expect_error(make("normal", {number("mean", inf)}), DType::f32,
               "normal: argument 'mean' is not finite");
}

TEST(Categorical, FrequenciesFollowTheWeights) {
  HostTensor t = draw(DType::u8, categorical({6, 0, 3, 1}), 1 << 16);
  auto h = histogram(t);
  EXPECT_EQ(h.count(1), 0u);  // weight 0: never drawn
  ASSERT_EQ(h.size(), 3u);
  double n = 1 << 16;
  EXPECT_NEAR(h[0] / n, 0.6, 0.01);
  EXPECT_NEAR(h[2] / n, 0.3, 0.01);
  EXPECT_NEAR(h[3] / n, 0.1, 0.01);
}

TEST(Categorical, ValuesReplaceTheIndices) {
  HostTensor t = draw(DType::f32, categorical({1, 1}, {-1.5, 1e6}), 1 << 12);
  auto h = histogram(t);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h.begin()->first, -1.5);
  EXPECT_EQ(h.rbegin()->first, 1e6);
  // Trailing zero weights keep no sliver of probability.
  HostTensor z = draw(DType::i32, categorical({1, 0, 0}), 1 << 16);
  EXPECT_EQ(histogram(z).size(), 1u);
}

TEST(PowerLaw, SmallRangeMatchesZipf) {
  // alpha 1 over 1..4: probabilities 12/25, 6/25, 4/25, 3/25.
  HostTensor t = draw(DType::i32, power_law(1, 10, 14), 1 << 17);
  auto h = histogram(t);
  ASSERT_EQ(h.size(), 4u);
  double n = 1 << 17;
  EXPECT_NEAR(h[10] / n, 12.0 / 25, 0.006);
  EXPECT_NEAR(h[11] / n, 6.0 / 25, 0.006);
  EXPECT_NEAR(h[12] / n, 4.0 / 25, 0.006);
  EXPECT_NEAR(h[13] / n, 3.0 / 25, 0.006);
}

TEST(PowerLaw, LargeVocabularyHasTheRightTailMass) {
  // Over 1..10^6 with alpha 1.2: ranks above 65536 (the continuous tail) take
  // sum_{k>65536} k^-1.2 / zeta-ish total; computed here by the same midpoint integral plus the
  // exact head, independently of the sampler's tables.
  const double alpha = 1.2, n_values = 1e6;
  double head = 0;
  for (int k = 1; k <= 65536; ++k) head += std::pow(k, -alpha);
  double tail = (std::pow(n_values + 0.5, 1 - alpha) - std::pow(65536.5, 1 - alpha)) / (1 - alpha);
  double want_tail = tail / (head + tail);
  HostTensor t = draw(DType::i64, power_law(alpha, 0, n_values), 1 << 18);
  size_t in_tail = 0, zeros = 0;
  for (size_t i = 0; i < t.numel(); ++i) {
    double v = element_as_double(t, i);
    ASSERT_GE(v, 0);
    ASSERT_LT(v, n_values);
    ASSERT_EQ(v, std::floor(v));
    in_tail += v >= 65536;
    zeros += v == 0;
  }
  double n = static_cast<double>(t.numel());
  EXPECT_NEAR(in_tail / n, want_tail, 0.005);
  EXPECT_NEAR(zeros / n, 1 / (head + tail), 0.005);
}

TEST(PowerLaw, ArgumentsAreChecked) {
  expect_error(power_law(0, 0, 10), DType::i32, "power_law: alpha (0) must be > 0");
  expect_error(power_law(1, 5, 5), DType::i32, "power_law: lo (5) must be < hi (5)");
  expect_error(power_law(1, 0, 300), DType::u8, "power_law: values in [0, 299] do not fit u8");
}

TEST(Mixture, ComponentsAppearInProportion) {
  auto d = mixture({make("constant", {number("value", 1)}), make("constant", {number("value", 2)}),
                    make("normal", {number("mean", 100), number("std", 1)})},
                   {0.5, 0.25, 0.25});
  HostTensor t = draw(DType::f64, d, 1 << 16);
  size_t ones = 0, twos = 0, far = 0;
  for (size_t i = 0; i < t.numel(); ++i) {
    double v = element_as_double(t, i);
    ones += v == 1;
    twos += v == 2;
    far += v > 90;
  }
  double n = 1 << 16;
  EXPECT_NEAR(ones / n, 0.5, 0.01);
  EXPECT_NEAR(twos / n, 0.25, 0.01);
  EXPECT_NEAR(far / n, 0.25, 0.01);
  // Without weights the components are equally likely.
  HostTensor e =
      draw(DType::i32, mixture({categorical({1}, {7}), categorical({1}, {9})}, {}), 1 << 14);
  EXPECT_NEAR(histogram(e)[7] / double(1 << 14), 0.5, 0.02);
}

TEST(Mixture, ArgumentsAreChecked) {
  expect_error(mixture({}, {}), DType::f32, "mixture: needs at least one component");
  expect_error(mixture({make("ones", {})}, {1, 2}), DType::f32,
               "mixture: 2 weights for 1 components");
  expect_error(mixture({make("ones", {}), make("zeros", {})}, {-1, 2}), DType::f32,
               "mixture: weight 1 (-1) must be finite and >= 0");
  expect_error(mixture({make("integers", {number("lo", 0), number("hi", 1000)})}, {}), DType::i8,
               "integers: values in [0, 999] do not fit i8");
  expect_error(categorical({0, 0}), DType::i32, "categorical: weights must not all be 0");
  expect_error(categorical({}), DType::i32, "categorical: weights must not be empty");
  expect_error(categorical({1, 1}, {1}), DType::i32, "categorical: 1 values for 2 weights");
  expect_error(categorical({1, 1}, {1, 256}), DType::u8,
               "categorical: values in [256, 256] do not fit u8");
}

// Every new distribution is a pure function of (key, index): slices drawn separately equal the
// whole, a seed changes the values, and the same seed repeats them.
TEST(NewDistributions, DeterministicPerSeedAndSliceIndependent) {
  std::vector<std::pair<DType, model::Distribution>> cases = {
      {DType::i32, categorical({5, 1, 1, 3})},
      {DType::i64, power_law(1.1, 0, 1e6)},
      {DType::f32, mixture({make("normal", {}), power_law(2, 0, 100)}, {0.7, 0.3})},
  };
  for (const auto& [dtype, d] : cases) {
    const int64_t n = 3001;
    HostTensor whole = draw(dtype, d, n, 5);
    EXPECT_EQ(content_digest(draw(dtype, d, n, 5)), content_digest(whole)) << d.name;
    EXPECT_NE(content_digest(draw(dtype, d, n, 6)), content_digest(whole)) << d.name;
    HostTensor parts = HostTensor::zeros(dtype, {n});
    uint64_t key = input_key("t", kPoint, 5, "x");
    generate_slice(parts, d, key, 1777, 3001);
    generate_slice(parts, d, key, 0, 999);
    generate_slice(parts, d, key, 999, 1777);
    EXPECT_EQ(parts.bytes, whole.bytes) << d.name;
  }
}

// Pinned values, as for the older distributions: a change here changes every task's inputs.
TEST(NewDistributions, Pinned) {
  HostTensor c = draw(DType::i32, categorical({5, 1, 1, 3}), 6);
  HostTensor p = draw(DType::i64, power_law(1.1, 0, 1e6), 6);
  std::string text;
  for (size_t k = 0; k < 6; ++k)
    text += fmt::format("{} {}\n", element_as_double(c, k), element_as_double(p, k));
  EXPECT_EQ(text, "1 223\n3 170164\n0 0\n3 1799\n0 0\n0 0\n") << text;
}

TEST(PortableExp, MatchesLibm) {
  for (double x :
       {-745.0, -700.0, -20.5, -1.0, -1e-10, 0.0, 1e-10, 0.5, 1.0, 2.302585, 88.7, 700.0}) {
    double want = std::exp(x), got = portable::exp(x);
    EXPECT_LE(std::fabs(got - want), 4 * std::fabs(want) * 0x1p-52 + 1e-320) << x;
  }
  EXPECT_EQ(portable::exp(800), std::numeric_limits<double>::infinity());
  EXPECT_EQ(portable::exp(-800), 0.0);
}

}  // namespace
}  // namespace kta::engine
