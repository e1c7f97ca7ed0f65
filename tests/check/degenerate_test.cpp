#include "engine/check/degenerate.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kta::engine {
namespace {

using model::DType;

HostTensor f32(std::vector<double> values) {
  HostTensor t = HostTensor::zeros(DType::f32, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) set_element(t, i, values[i]);
  return t;
}

model::Tolerance tol(double atol, double rtol, bool nan_equal = false) {
  model::Tolerance t;
  t.atol = atol;
  t.rtol = rtol;
  t.nan_equal = nan_equal;
  return t;
}

TEST(Degenerate, HealthyReferencePasses) {
  std::vector<HostTensor> seeds = {f32({0.5, -1.25, 3}), f32({0.75, 2.5, -0.125})};
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-5, 1e-5)), std::nullopt);
}

TEST(Degenerate, NearZeroOutputsLetZerosPass) {
  std::vector<HostTensor> seeds = {f32({1e-7, -2e-7, 0}), f32({3e-7, 0, 1e-8})};
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-5, 0)),
            "reference output is all zeros within tolerance: an all-zero output passes");
  // With a tolerance tighter than the values, the same outputs are fine.
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-9, 0)), std::nullopt);
}

TEST(Degenerate, ConstantOutput) {
  std::vector<HostTensor> seeds = {f32({0.5, 0.5, 0.5}), f32({1, 2, 3})};
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-5, 1e-5)),
            "reference output is constant (every element is 0.5)");
  // A single-element output (a reduction) is not "constant".
  std::vector<HostTensor> scalars = {f32({4}), f32({5})};
  EXPECT_EQ(degenerate_reference(scalars, tol(1e-5, 1e-5)), std::nullopt);
}

TEST(Degenerate, SeedIndependentOutput) {
  std::vector<HostTensor> seeds = {f32({1, 2, 3}), f32({1, 2, 3}), f32({1, 2, 3.5})};
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-5, 1e-5)),
            "reference output does not depend on the seed: seed 0's output passes for seed 1");
}

TEST(Degenerate, NanInReferenceNeedsNanEqual) {
  std::vector<HostTensor> seeds = {f32({1, NAN, 3}), f32({4, 5, 6})};
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-5, 1e-5)),
            "reference output has NaN at index 1; no output can match it without nan_equal");
  EXPECT_EQ(degenerate_reference(seeds, tol(1e-5, 1e-5, true)), std::nullopt);
}

TEST(Degenerate, EmptyInput) {
  EXPECT_EQ(degenerate_reference(std::vector<HostTensor>{}, tol(0, 0)), std::nullopt);
}

}  // namespace
}  // namespace kta::engine
