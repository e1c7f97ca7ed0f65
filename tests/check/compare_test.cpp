#include "engine/check/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace kta::engine {
namespace {

using model::DType;

HostTensor f32(std::vector<double> values, std::vector<int64_t> shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  HostTensor t = HostTensor::zeros(DType::f32, shape);
  for (size_t i = 0; i < values.size(); ++i) set_element(t, i, values[i]);
  return t;
}

model::Tolerance tol(double atol, double rtol, double max_mismatch = 0, bool nan_equal = false) {
  model::Tolerance t;
  t.atol = atol;
  t.rtol = rtol;
  t.max_mismatch = max_mismatch;
  t.nan_equal = nan_equal;
  return t;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Compare, ExactMatchPasses) {
  CompareResult r = compare(f32({1, 2, 3}), f32({1, 2, 3}), tol(0, 0));
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_EQ(r.first_bad_index, -1);
  EXPECT_EQ(r.max_abs_error, 0);
  EXPECT_EQ(r.elements, 3u);
  EXPECT_TRUE(r.reason.empty());
}

TEST(Compare, ToleranceEdgeIsInclusive) {
  // |got - want| <= atol + rtol * |want|: 0.5 + 0.25 * 2 = 1.0 allows exactly 1.0.
  EXPECT_TRUE(compare(f32({3.0}), f32({2.0}), tol(0.5, 0.25)).pass);
  EXPECT_FALSE(compare(f32({3.0 + 1.0 / 1024}), f32({2.0}), tol(0.5, 0.25)).pass);
  // rtol scales with the reference, not with the candidate.
  EXPECT_TRUE(compare(f32({-2.5}), f32({-2.0}), tol(0, 0.25)).pass);
  EXPECT_FALSE(compare(f32({-2.1}), f32({-1.6}), tol(0, 0.25)).pass);
}

TEST(Compare, ReportsErrorsAndFirstBadIndex) {
  CompareResult r = compare(f32({1, 1.5, 2, 4, 5}), f32({1, 1.25, 2, 2, 5}), tol(0.1, 0));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches, 2u);
  EXPECT_EQ(r.first_bad_index, 1);
  EXPECT_EQ(r.got_at_first_bad, 1.5);
  EXPECT_EQ(r.want_at_first_bad, 1.25);
  EXPECT_EQ(r.max_abs_error, 2.0);
  EXPECT_EQ(r.max_rel_error, 1.0);
  EXPECT_EQ(r.reason, "2 of 5 elements outside tolerance (first at index 1: got 1.5, want 1.25)");
  ASSERT_EQ(r.examples.size(), 2u);
  EXPECT_EQ(r.examples[1].index, 3);
  EXPECT_EQ(r.examples[1].got, 4);
  EXPECT_EQ(r.examples[1].want, 2);
}

TEST(Compare, NanIsNeverAWildcard) {
  CompareResult r = compare(f32({1, 2, 3, kNaN}), f32({1, 2, 3, 0.75}), tol(1e9, 1e9, 0.5));
  EXPECT_FALSE(r.pass);  // even a huge tolerance and mismatch allowance do not admit NaN
  EXPECT_EQ(r.nan_in_output, 1u);
  EXPECT_EQ(r.reason, "NaN at index 3 where the reference is 0.75");
  // NaN in the reference is not matched by a number...
  EXPECT_FALSE(compare(f32({1}), f32({kNaN}), tol(1e9, 1e9)).pass);
  // ...nor by NaN unless the task says NaN compares equal.
  EXPECT_FALSE(compare(f32({kNaN}), f32({kNaN}), tol(0, 0)).pass);
  EXPECT_TRUE(compare(f32({kNaN}), f32({kNaN}), tol(0, 0, 0, true)).pass);
}

TEST(Compare, InfMustMatchExactly) {
  EXPECT_TRUE(compare(f32({kInf, -kInf}), f32({kInf, -kInf}), tol(0, 0)).pass);
  EXPECT_FALSE(compare(f32({kInf}), f32({-kInf}), tol(1e30, 1e30)).pass);
  EXPECT_FALSE(compare(f32({1e30}), f32({kInf}), tol(1e38, 1e38)).pass);
  EXPECT_FALSE(compare(f32({kInf}), f32({1e30}), tol(1e38, 1e38)).pass);
  // Infinite pairs stay out of the error maxima (they would be NaN or Inf).
  CompareResult r = compare(f32({kInf, 1}), f32({kInf, 1.5}), tol(1, 0));
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.max_abs_error, 0.5);
}

TEST(Compare, MismatchFraction) {
  std::vector<double> want(100, 1.0), got(100, 1.0);
  got[10] = got[20] = got[30] = 2.0;
  // floor(0.03 * 100) = 3 mismatches allowed.
  EXPECT_TRUE(compare(f32(got), f32(want), tol(0, 0, 0.03)).pass);
  CompareResult r = compare(f32(got), f32(want), tol(0, 0, 0.029));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.reason,
            "3 of 100 elements outside tolerance (first at index 10: got 2, want 1); allowed 2");
  EXPECT_EQ(r.mismatches, 3u);
  std::vector<double> all_bad(100, 5.0);
  EXPECT_EQ(compare(f32(all_bad), f32(want), tol(0, 0)).examples.size(), kMismatchExamples);
}

TEST(Compare, ShapeAndDtypeMismatch) {
  CompareResult r = compare(f32({1, 2, 3, 4}, {2, 2}), f32({1, 2, 3, 4}, {4}), tol(1, 1));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.reason, "shape mismatch: got f32[2,2], want f32[4]");
  HostTensor h = HostTensor::zeros(DType::f16, {4});
  EXPECT_EQ(compare(h, f32({0, 0, 0, 0}), tol(1, 1)).reason,
            "dtype mismatch: got f16[4], want f32[4]");
  HostTensor truncated = f32({1, 2});
  truncated.bytes.resize(4);
  EXPECT_FALSE(compare(truncated, f32({1, 2}), tol(1, 1)).pass);
}

TEST(Compare, EmptyTensorsPass) {
  HostTensor e = HostTensor::zeros(DType::f32, {0});
  EXPECT_TRUE(compare(e, e, tol(0, 0)).pass);
}

TEST(Compare, HalfAndIntegerOutputs) {
  HostTensor got = HostTensor::zeros(DType::bf16, {2}), want = got;
  set_element(got, 0, 1.0);
  set_element(want, 0, 1.0078125);  // one bf16 ulp above 1
  EXPECT_FALSE(compare(got, want, tol(0, 0)).pass);
  EXPECT_TRUE(compare(got, want, tol(0, 0.01)).pass);
  HostTensor gi = HostTensor::zeros(DType::i32, {3}), wi = gi;
  set_element(gi, 2, 7);
  set_element(wi, 2, 8);
  CompareResult r = compare(gi, wi, tol(0, 0));
  EXPECT_EQ(r.reason, "1 of 3 elements outside tolerance (first at index 2: got 7, want 8)");
}

// Large tensors are compared in slices on several threads; the merged figures must be those of
// one pass in index order: first bad index, the first examples in order, counts and maxima.
TEST(Compare, SlicedScanOfALargeTensorMatchesTheSerialFigures) {
  const size_t n = size_t(1) << 21;
  HostTensor want = HostTensor::zeros(DType::f32, {static_cast<int64_t>(n)});
  for (size_t i = 0; i < n; ++i) set_element(want, i, double(i % 97) - 48.0);
  HostTensor got = want;
  // Bad elements in several slices, the earliest late in the first half.
  std::vector<size_t> bad = {n / 2 - 3,   n / 2 + 5,   n - 1,       (n / 4) * 3 + 11, n / 2 + 100,
                             n / 2 + 200, n / 2 + 300, n / 2 + 400, n / 2 + 500,      n / 2 + 600};
  for (size_t b : bad) set_element(got, b, element_as_double(want, b) + 10.0);
  set_element(got, n / 3, kNaN);
  CompareResult r = compare(got, want, tol(1e-6, 0, 0.5));
  std::sort(bad.begin(), bad.end());
  EXPECT_EQ(r.elements, n);
  EXPECT_EQ(r.mismatches, bad.size() + 1);
  EXPECT_EQ(r.nan_in_output, 1u);
  EXPECT_EQ(r.first_bad_index, static_cast<int64_t>(n / 3));  // the NaN comes first
  EXPECT_TRUE(std::isnan(r.got_at_first_bad));
  ASSERT_EQ(r.examples.size(), kMismatchExamples);
  EXPECT_EQ(r.examples[0].index, static_cast<int64_t>(n / 3));
  for (size_t k = 1; k < kMismatchExamples; ++k)
    EXPECT_EQ(r.examples[k].index, static_cast<int64_t>(bad[k - 1])) << k;
  EXPECT_DOUBLE_EQ(r.max_abs_error, 10.0);
  // NaN where the reference has a number fails even within the allowance.
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.reason.find("1 NaN where the reference has a number"), std::string::npos) << r.reason;
  // Without the NaN the allowance holds.
  set_element(got, n / 3, element_as_double(want, n / 3));
  CompareResult ok = compare(got, want, tol(1e-6, 0, 0.5));
  EXPECT_TRUE(ok.pass) << ok.reason;
  EXPECT_EQ(ok.first_bad_index, static_cast<int64_t>(bad[0]));
}

// 64-bit integers above 2^53 share doubles with their neighbours: hashes and bit patterns off by
// one must still fail, and u32 values above int32's range compare as themselves.
TEST(Compare, UnsignedAndWideIntegersCompareExactly) {
  auto u64 = [](std::vector<uint64_t> v) {
    HostTensor t = HostTensor::zeros(DType::u64, {static_cast<int64_t>(v.size())});
    std::memcpy(t.bytes.data(), v.data(), v.size() * 8);
    return t;
  };
  uint64_t big = 0xfedcba9876543211ull;
  EXPECT_TRUE(compare(u64({big, 7}), u64({big, 7}), tol(0, 0)).pass);
  CompareResult r = compare(u64({big, 7}), u64({big - 1, 7}), tol(0, 0));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_bad_index, 0);
  EXPECT_EQ(r.max_abs_error, 1.0);
  EXPECT_EQ(r.reason,
            "1 of 2 elements outside tolerance (first at index 0: got 18364758544493064721, want "
            "18364758544493064720)");
  EXPECT_TRUE(compare(u64({big, 7}), u64({big - 1, 7}), tol(1, 0)).pass);
  HostTensor a = HostTensor::zeros(DType::i64, {1}), b = HostTensor::zeros(DType::i64, {1});
  int64_t x = -(int64_t{1} << 60) - 1, y = -(int64_t{1} << 60);
  std::memcpy(a.bytes.data(), &x, 8);
  std::memcpy(b.bytes.data(), &y, 8);
  EXPECT_FALSE(compare(a, b, tol(0, 0)).pass);
  HostTensor u = HostTensor::zeros(DType::u32, {2}), w = HostTensor::zeros(DType::u32, {2});
  uint32_t uv[2] = {4000000000u, 1}, wv[2] = {4000000000u, 2};
  std::memcpy(u.bytes.data(), uv, 8);
  std::memcpy(w.bytes.data(), wv, 8);
  r = compare(u, w, tol(0, 0));
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_bad_index, 1);
  EXPECT_NE(
      compare(u, u64({1, 2}), tol(0, 0)).reason.find("dtype mismatch: got u32[2], want u64[2]"),
      std::string::npos);
}

}  // namespace
}  // namespace kta::engine
