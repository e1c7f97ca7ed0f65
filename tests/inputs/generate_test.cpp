#include "engine/inputs/generate.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <set>

#include "engine/check/poison.h"
#include "engine/inputs/half.h"
#include "engine/inputs/portable_math.h"
#include "inputs_test_support.h"

namespace kta::engine {
namespace {

using model::DType;
using test::draw;
using test::expect_error;
using test::kPoint;
using test::tensor;

model::Distribution dist(std::string name, std::vector<std::pair<std::string, double>> args = {}) {
  model::Distribution d{std::move(name), {}, {}};
  for (auto& [k, v] : args) d.args.push_back({k, {v}, false, {}});
  return d;
}

struct Moments {
  double mean = 0, var = 0, min = 1e300, max = -1e300;
};
Moments moments(const HostTensor& t) {
  Moments m;
  size_t n = t.numel();
  for (size_t i = 0; i < n; ++i) {
    double v = element_as_double(t, i);
    m.mean += v;
    m.min = std::min(m.min, v);
    m.max = std::max(m.max, v);
  }
  m.mean /= n;
  for (size_t i = 0; i < n; ++i) m.var += std::pow(element_as_double(t, i) - m.mean, 2);
  m.var /= n - 1;
  return m;
}

TEST(PortableMath, LogMatchesLibm) {
  for (double x : {1e-300, 1e-17, 0x1p-53, 0.001, 0.1, 0.5, 0.70710678, 0.7071068, 0.9, 0.999999,
                   1.0, 2.0, 1e10}) {
    EXPECT_NEAR(portable::log(x), std::log(x), 4e-16 * std::max(1.0, std::fabs(std::log(x)))) << x;
  }
}

TEST(PortableMath, CosSinMatchLibm) {
  for (int k = 0; k < 1000; ++k) {
    double t = k / 1000.0 + 0.000123;
    if (t >= 1) continue;
    EXPECT_NEAR(portable::cos_2pi(t), std::cos(2 * M_PI * t), 3e-15) << t;
    EXPECT_NEAR(portable::sin_2pi(t), std::sin(2 * M_PI * t), 3e-15) << t;
  }
  EXPECT_EQ(portable::cos_2pi(0.0), 1.0);
  EXPECT_EQ(portable::cos_2pi(0.5), -1.0);
}

TEST(Generate, NormalMoments) {
  HostTensor t = draw(DType::f32, dist("normal", {{"mean", 3}, {"std", 2}}), 1 << 16);
  Moments m = moments(t);
  // 2^16 draws: the standard error of the mean is 2/256 ~ 0.008; of the variance ~ 0.022.
  EXPECT_NEAR(m.mean, 3.0, 0.04);
  EXPECT_NEAR(m.var, 4.0, 0.12);
  EXPECT_LT(m.min, 3 - 6);  // tails exist (4-sigma events are expected in 65536 draws)
  EXPECT_GT(m.max, 3 + 6);
}

TEST(Generate, UniformMomentsAndRange) {
  HostTensor t = draw(DType::f64, dist("uniform", {{"lo", -1}, {"hi", 3}}), 1 << 16);
  Moments m = moments(t);
  EXPECT_NEAR(m.mean, 1.0, 0.02);
  EXPECT_NEAR(m.var, 16.0 / 12, 0.03);
  EXPECT_GE(m.min, -1.0);
  EXPECT_LT(m.max, 3.0);
}

TEST(Generate, IntegersCoverHalfOpenRange) {
  HostTensor t = draw(DType::i32, dist("integers", {{"lo", -3}, {"hi", 4}}), 1 << 14);
  std::map<int, int> counts;
  for (size_t i = 0; i < t.numel(); ++i) counts[static_cast<int>(element_as_double(t, i))]++;
  ASSERT_EQ(counts.size(), 7u);  // -3..3, never 4
  EXPECT_EQ(counts.begin()->first, -3);
  EXPECT_EQ(counts.rbegin()->first, 3);
  for (auto [v, c] : counts) EXPECT_NEAR(c, (1 << 14) / 7.0, 250) << v;
}

TEST(Generate, DeterministicFunctions) {
  HostTensor ones = draw(DType::bf16, dist("ones"), 17);
  HostTensor zeros = draw(DType::i8, dist("zeros"), 17);
  HostTensor c = draw(DType::f16, dist("constant", {{"value", 0.1}}), 17);
  HostTensor a = draw(DType::i64, dist("arange", {{"start", 5}, {"step", -2}}), 17);
  for (size_t i = 0; i < 17; ++i) {
    EXPECT_EQ(element_as_double(ones, i), 1.0);
    EXPECT_EQ(element_as_double(zeros, i), 0.0);
    EXPECT_EQ(element_as_double(c, i), f16_to_float(float_to_f16(0.1f)));
    EXPECT_EQ(element_as_double(a, i), 5.0 - 2.0 * i);
  }
}

TEST(Generate, BernoulliIntoBool) {
  HostTensor t = draw(DType::boolean, dist("bernoulli", {{"p", 0.25}}), 1 << 14);
  size_t ones = 0;
  for (size_t i = 0; i < t.numel(); ++i) {
    auto b = static_cast<uint8_t>(t.bytes[i]);
    ASSERT_TRUE(b == 0 || b == 1);
    ones += b;
  }
  EXPECT_NEAR(static_cast<double>(ones) / t.numel(), 0.25, 0.02);
}

TEST(Generate, HalfTypesAreRoundedFloats) {
  auto d = dist("normal");
  HostTensor f = draw(DType::f32, d);
  HostTensor h = draw(DType::f16, d);
  HostTensor b = draw(DType::bf16, d);
  for (size_t i = 0; i < f.numel(); ++i) {
    float v = static_cast<float>(element_as_double(f, i));
    ASSERT_EQ(element_as_double(h, i), f16_to_float(float_to_f16(v)));
    ASSERT_EQ(element_as_double(b, i), bf16_to_float(float_to_bf16(v)));
  }
}

TEST(Generate, KeyedByTaskPointSeedAndTensor) {
  auto d = dist("normal");
  uint64_t base = content_digest(draw(DType::f32, d));
  EXPECT_EQ(content_digest(draw(DType::f32, d)), base);                // same inputs, same bytes
  EXPECT_NE(content_digest(draw(DType::f32, d, 4096, 1)), base);       // seed
  EXPECT_NE(content_digest(draw(DType::f32, d, 4096, 0, "y")), base);  // tensor name
  EXPECT_NE(content_digest(draw(DType::f32, d, 4096, 0, "x", "other")), base);  // task
  HostTensor other_point =
      generate_input(tensor("x", DType::f32), {4096}, d, "t", {{"N", 4097}}, 0);
  EXPECT_NE(content_digest(other_point), base);
  // Axis names matter too, not only values.
  EXPECT_NE(input_key("t", {{"N", 1}, {"M", 2}}, 0, "x"),
            input_key("t", {{"M", 1}, {"N", 2}}, 0, "x"));
}

// Pinned values: any change to the PRNG, the key derivation or the transforms changes inputs
// for every task, which must be a deliberate decision (it invalidates cached references).
TEST(Generate, PinnedAcrossPlatforms) {
  EXPECT_EQ(input_key("t", kPoint, 0, "x"), input_key("t", kPoint, 0, "x"));
  HostTensor n = draw(DType::f64, dist("normal"), 4);
  HostTensor u = draw(DType::f64, dist("uniform"), 4);
  HostTensor i = draw(DType::i32, dist("integers", {{"lo", 0}, {"hi", 1000}}), 4);
  std::string text;
  for (size_t k = 0; k < 4; ++k)
    text += fmt::format("{} {} {}\n", element_as_double(n, k), element_as_double(u, k),
                        element_as_double(i, k));
  EXPECT_EQ(text,
            "0.9541134411823925 0.590212021190114 590\n"
            "-0.3797557619422673 0.9397124432361662 939\n"
            "-0.41158178040861965 0.025353157921626956 25\n"
            "-2.679609002401689 0.7257437346015877 725\n")
      << text;
}

// A separate process (fresh statics, another thread split) draws the same bytes.
TEST(Generate, SameBytesInAnotherProcess) {
  auto d = dist("normal", {{"mean", 1}, {"std", 0.5}});
  auto digest = [&] { return content_digest(draw(DType::bf16, d, (1 << 20) + 3, 9)); };
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    uint64_t h = digest();
    _exit(write(fds[1], &h, sizeof h) == sizeof h ? 0 : 1);
  }
  uint64_t child = 0;
  ssize_t got = read(fds[0], &child, sizeof child);
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  close(fds[1]);
  ASSERT_EQ(got, static_cast<ssize_t>(sizeof child));
  EXPECT_EQ(child, digest());
}

TEST(Generate, SlicesEqualTheWhole) {
  auto d = dist("normal", {{"std", 3}});
  HostTensor whole = draw(DType::f32, d, 1000);
  HostTensor parts = HostTensor::zeros(DType::f32, {1000});
  uint64_t key = input_key("t", kPoint, 0, "x");
  // Odd boundaries split a Philox block between two slices.
  generate_slice(parts, d, key, 601, 1000);
  generate_slice(parts, d, key, 0, 251);
  generate_slice(parts, d, key, 251, 601);
  EXPECT_EQ(parts.bytes, whole.bytes);
}

TEST(Generate, ThreadedLargeTensorMatchesSerialSlices) {
  auto d = dist("uniform");
  const int64_t n = (1 << 21) + 5;  // large enough to be split across threads
  HostTensor big = draw(DType::f32, d, n);
  HostTensor serial = HostTensor::zeros(DType::f32, {n});
  generate_slice(serial, d, input_key("t", kPoint, 0, "x"), 0, static_cast<size_t>(n));
  EXPECT_EQ(big.bytes, serial.bytes);
}

TEST(Generate, ScalarAndEmptyTensors) {
  HostTensor s = generate_input(tensor("s", DType::f32, 0), {}, dist("constant", {{"value", 2}}),
                                "t", kPoint, 0);
  EXPECT_EQ(s.numel(), 1u);
  EXPECT_EQ(element_as_double(s, 0), 2.0);
  HostTensor e = draw(DType::f32, dist("normal"), 0);
  EXPECT_EQ(e.numel(), 0u);
  EXPECT_TRUE(e.bytes.empty());
}

TEST(Generate, BadInputsAreNamed) {
  expect_error(dist("gaussian"), DType::f32,
               "unknown input distribution 'gaussian' (known: arange, bernoulli, categorical, "
               "constant, integers, mixture, normal, ones, power_law, uniform, zeros)");
  expect_error(dist("uniform", {{"lo", 2}, {"hi", 1}}), DType::f32,
               "uniform: lo (2) must be < hi (1)");
  expect_error(dist("normal", {{"std", -1}}), DType::f32, "normal: std (-1) must be >= 0");
  expect_error(dist("normal", {{"sigma", 1}}), DType::f32,
               "normal: unknown argument 'sigma' (expected mean, std)");
  expect_error(dist("constant"), DType::f32, "constant: missing argument 'value'");
  expect_error(dist("ones", {{"x", 1}}), DType::f32, "ones: takes no arguments, got 'x'");
  expect_error(dist("integers", {{"lo", 0}, {"hi", 300}}), DType::u8,
               "integers: values in [0, 299] do not fit u8");
  expect_error(dist("integers", {{"lo", 0.5}, {"hi", 3}}), DType::i32,
               "integers: lo (0.5) and hi (3) must be integers");
  expect_error(dist("arange", {{"start", 0}, {"step", 10}}), DType::i8,
               "arange: values in [0, 150] do not fit i8");
  expect_error(dist("normal", {{"mean", std::nan("")}}), DType::f32,
               "normal: argument 'mean' is not finite");
  EXPECT_THROW(generate_input(tensor("x", DType::f32, 2), {4}, dist("ones"), "t", kPoint, 0),
               std::invalid_argument);
  EXPECT_THROW(generate_input(tensor("x", DType::f32, 1), {-4}, dist("ones"), "t", kPoint, 0),
               std::invalid_argument);
}

}  // namespace
}  // namespace kta::engine
