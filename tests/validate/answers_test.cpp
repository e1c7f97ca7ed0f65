// The pure parts of kta validate: cheap wrong answers, tolerance usage, float atomics.
#include "engine/validate/answers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "engine/check/compare.h"
#include "engine/validate/checks.h"
#include "engine/validate/device_checks.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;
using model::DType;

HostTensor tensor(DType dtype, std::vector<double> values) {
  HostTensor t = HostTensor::zeros(dtype, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) set_element(t, i, values[i]);
  return t;
}

model::Tolerance tol(double atol, double rtol, double max_mismatch = 0) {
  model::Tolerance t;
  t.atol = atol;
  t.rtol = rtol;
  t.max_mismatch = max_mismatch;
  return t;
}

TEST(LowerPrecision, F32RoundsToBf16Precision) {
  std::string format;
  auto lower = lower_precision(tensor(DType::f32, {1.0 + 1.0 / 512, 3.0, -0.1}), &format);
  ASSERT_TRUE(lower);
  EXPECT_EQ(format, "bf16");
  EXPECT_EQ(lower->dtype, DType::f32);
  // 1 + 2^-9 is halfway between bf16 neighbours 1 and 1 + 2^-7... ties to even: 1.
  EXPECT_EQ(element_as_double(*lower, 0), 1.0);
  EXPECT_EQ(element_as_double(*lower, 1), 3.0);
  EXPECT_NEAR(element_as_double(*lower, 2), -0.1, 0.1 / 128);
  EXPECT_NE(element_as_double(*lower, 2), static_cast<double>(-0.1f));
}

TEST(LowerPrecision, HalfTypesLoseAllButThreeMantissaBits) {
  std::string format;
  auto lower = lower_precision(tensor(DType::f16, {1.0 + 1.0 / 8 + 1.0 / 16, 0.0}), &format);
  ASSERT_TRUE(lower);
  EXPECT_EQ(format, "f8 (e4m3 precision)");
  EXPECT_EQ(element_as_double(*lower, 0), 1.25);  // 1.1875 -> nearest 3-bit mantissa (tie: even)
  EXPECT_EQ(element_as_double(*lower, 1), 0.0);
}

TEST(LowerPrecision, IntegersHaveNone) {
  std::string format;
  EXPECT_FALSE(lower_precision(tensor(DType::i32, {1, 2}), &format));
  EXPECT_FALSE(lower_precision(tensor(DType::boolean, {1, 0}), &format));
}

TEST(LowerPrecision, FailsATightF32ToleranceAndPassesALooseOne) {
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i) v.push_back(std::sin(i * 0.37) * 10);
  HostTensor want = tensor(DType::f32, v);
  std::string format;
  HostTensor bf16 = *lower_precision(want, &format);
  EXPECT_FALSE(compare(bf16, want, tol(1e-5, 1e-5)).pass);
  EXPECT_TRUE(compare(bf16, want, tol(1e-2, 1e-2)).pass);
}

TEST(Perturbed, ChangesOnePercentAtLeastOne) {
  HostTensor want = tensor(DType::f32, std::vector<double>(1000, 2.0));
  size_t changed = 0;
  HostTensor wrong = perturbed(want, 0.01, 7, &changed);
  EXPECT_EQ(changed, 10u);
  size_t differ = 0;
  for (size_t i = 0; i < 1000; ++i)
    if (element_as_double(wrong, i) != 2.0) {
      ++differ;
      EXPECT_EQ(element_as_double(wrong, i), 5.0);  // v + 1 + |v|
    }
  EXPECT_EQ(differ, 10u);
  perturbed(tensor(DType::f32, {1, 2, 3}), 0.01, 7, &changed);
  EXPECT_EQ(changed, 1u);
}

TEST(Perturbed, PassesOnlyAToleranceThatAllowsMismatches) {
  HostTensor want = tensor(DType::f32, std::vector<double>(1000, 1.0));
  size_t changed = 0;
  HostTensor wrong = perturbed(want, 0.01, 3, &changed);
  EXPECT_FALSE(compare(wrong, want, tol(1e-3, 1e-3)).pass);
  EXPECT_TRUE(compare(wrong, want, tol(1e-3, 1e-3, 0.01)).pass);  // max_mismatch 1% admits it
}

TEST(Perturbed, IntegersAtTheirLimitGoDown) {
  HostTensor want = tensor(DType::u8, {255});
  size_t changed = 0;
  HostTensor wrong = perturbed(want, 0.01, 1, &changed);
  EXPECT_EQ(element_as_double(wrong, 0), 254.0);
  HostTensor flags = tensor(DType::boolean, {1});
  EXPECT_EQ(element_as_double(perturbed(flags, 0.01, 1, &changed), 0), 0.0);
}

TEST(ToleranceUsage, IsTheLargestErrorOverItsBound) {
  HostTensor want = tensor(DType::f32, {1, 2, 4});
  HostTensor got = tensor(DType::f32, {1, 2.5, 4.25});
  // bounds 0.1 + 0.1 |want| = 0.3 and 0.5 against errors 0.5 and 0.25: usage 5/3 and 1/2
  EXPECT_NEAR(tolerance_usage(got, want, tol(0.1, 0.1)), 0.5 / 0.3, 1e-9);
  EXPECT_EQ(tolerance_usage(want, want, tol(0, 0)), 0);
  EXPECT_EQ(tolerance_usage(got, want, tol(0, 0)), std::numeric_limits<double>::infinity());
}

TEST(ToleranceUsage, LeavesOutWhatMaxMismatchAllows) {
  HostTensor want = tensor(DType::f32, std::vector<double>(10, 1.0));
  HostTensor got = want;
  set_element(got, 3, 100.0);
  set_element(got, 4, 1.05);
  EXPECT_NEAR(tolerance_usage(got, want, tol(0.1, 0, 0.1)), 0.5, 1e-6);
}

TEST(ToleranceUsage, NanIsInfiniteUnlessBothAreNanAndAllowed) {
  HostTensor want = tensor(DType::f32, {std::nan("")});
  HostTensor got = tensor(DType::f32, {1});
  EXPECT_EQ(tolerance_usage(got, want, tol(1, 1)), std::numeric_limits<double>::infinity());
  model::Tolerance t = tol(1, 1);
  t.nan_equal = true;
  EXPECT_EQ(tolerance_usage(want, want, t), 0);
}

class FloatAtomics : public ::testing::Test {
 protected:
  fs::path dir_ = fs::path(::testing::TempDir()) / "kta_float_atomics";
  void SetUp() override { fs::create_directories(dir_); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
};

TEST_F(FloatAtomics, NamesFloatAccumulatorsWithTheirLine) {
  auto f = write("ref.hip",
                 "__global__ void k(const float* x, float* __restrict__ out, int* count) {\n"
                 "  __shared__ double acc[4];\n"
                 "  atomicAdd(&out[0], x[threadIdx.x]);\n"
                 "  atomicAdd(count, 1);\n"
                 "  atomicAdd(&acc[1], 1.0);\n"
                 "}\n");
  auto found = float_atomics(f);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], "ref.hip:3: atomicAdd on float 'out'");
  EXPECT_EQ(found[1], "ref.hip:5: atomicAdd on float 'acc'");
}

TEST_F(FloatAtomics, LooksIntoIncludedFilesOfTheFolder) {
  write("sum.h", "__device__ void add(float* total, float v) { unsafeAtomicAdd(total, v); }\n");
  auto f = write("ref.hip", "#include \"sum.h\"\n__global__ void k(float* y) { add(y, 1.0f); }\n");
  auto found = float_atomics(f);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "sum.h:1: unsafeAtomicAdd on float 'total'");
}

TEST_F(FloatAtomics, IntegerAtomicsAreFine) {
  auto f = write("ref.hip",
                 "__global__ void k(const int* x, unsigned* hist) {\n"
                 "  atomicAdd(&hist[x[threadIdx.x]], 1u);\n"
                 "}\n");
  EXPECT_TRUE(float_atomics(f).empty());
}

// timing.self on the baseline timed against itself: an interval that holds 1 passes; a bias
// within twice the noise target (at least 5%) is what a busy machine reads, a warning; a larger
// one on a measurement that reached its noise target fails; an unreliable one only warns.
PerformanceReport self_report(double est, double lo, double hi, bool reliable = true) {
  PerformanceReport pr;
  pr.speedup = SpeedupEstimate{est, lo, hi};
  pr.reliable = reliable;
  return pr;
}

TEST(TimingSelf, IdenticalCodeMustReadOneBeyondTheNoiseAllowance) {
  model::Task task;  // the candidate is the baseline
  task.timing.max_noise = 0.02;
  EXPECT_EQ(self_check(task, task.timing, self_report(1.01, 0.99, 1.03)).level, CheckLevel::pass);
  // Seen under two busy loops on two cores: 1.032x [1.007, 1.058].
  CheckOutcome small = self_check(task, task.timing, self_report(1.032, 1.007, 1.058));
  EXPECT_EQ(small.level, CheckLevel::warn) << small.reason;
  EXPECT_NE(small.reason.find("within 1.050x"), std::string::npos) << small.reason;
  EXPECT_EQ(self_check(task, task.timing, self_report(0.96, 0.94, 0.98)).level, CheckLevel::warn);
  CheckOutcome big = self_check(task, task.timing, self_report(1.12, 1.09, 1.15));
  EXPECT_EQ(big.level, CheckLevel::fail) << big.reason;
  EXPECT_NE(big.reason.find("favours one side"), std::string::npos) << big.reason;
  EXPECT_EQ(self_check(task, task.timing, self_report(0.85, 0.8, 0.9)).level, CheckLevel::fail);
  EXPECT_EQ(self_check(task, task.timing, self_report(1.12, 1.09, 1.15, false)).level,
            CheckLevel::warn);
  task.timing.max_noise = 0.08;  // a noisier target allows more: 1.16x either way
  EXPECT_EQ(self_check(task, task.timing, self_report(1.12, 1.09, 1.15)).level, CheckLevel::warn);
}

// The allowance is the one of the timing the run measured with: `kta validate --quick` shortens
// the task's timing to a 5% noise target, and a busy CI machine then read identical code at
// 1.061x [1.022, 1.101] (leaky_relu, two busy loops on two cores). Against the task's own 0.5%
// (a 5% band) that failed; against the quick timing's 5% (a 10% band) it is the busy machine's
// warning it is.
TEST(TimingSelf, TheAllowanceIsTheMeasuringTimingsNotTheTasks) {
  model::Task task;
  task.timing.max_noise = 0.005;
  model::Timing quick = task.timing;
  quick.max_noise = 0.05;
  EXPECT_EQ(self_check(task, task.timing, self_report(1.061, 1.022, 1.101)).level,
            CheckLevel::fail);
  CheckOutcome busy = self_check(task, quick, self_report(1.061, 1.022, 1.101));
  EXPECT_EQ(busy.level, CheckLevel::warn) << busy.reason;
  EXPECT_NE(busy.reason.find("within 1.100x"), std::string::npos) << busy.reason;
  // A real bias still fails under quick timing.
  EXPECT_EQ(self_check(task, quick, self_report(1.25, 1.2, 1.3)).level, CheckLevel::fail);
}

}  // namespace
}  // namespace kta::engine
