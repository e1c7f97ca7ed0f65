#include "engine/inputs/half.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace kta::engine {
namespace {

TEST(F16, ExactValuesRoundTrip) {
  for (float v :
       {0.0f, 1.0f, -2.0f, 0.5f, 65504.0f, -65504.0f, 0x1p-14f, 0x1p-24f, 1.5f, 3.140625f})
    EXPECT_EQ(f16_to_float(float_to_f16(v)), v) << v;
}

TEST(F16, KnownEncodings) {
  EXPECT_EQ(float_to_f16(1.0f), 0x3c00);
  EXPECT_EQ(float_to_f16(-2.0f), 0xc000);
  EXPECT_EQ(float_to_f16(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_f16(0x1p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_f16(0x1p-14f), 0x0400);  // smallest normal
  EXPECT_EQ(float_to_f16(-0.0f), 0x8000);
}

TEST(F16, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties to the even mantissa (1.0).
  EXPECT_EQ(float_to_f16(1.0f + 0x1p-11f), 0x3c00);
  // 1 + 3 * 2^-11 lies halfway between 1+2^-10 (odd) and 1+2^-9 (even): rounds up.
  EXPECT_EQ(float_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02);
  // Just above the halfway point rounds up.
  EXPECT_EQ(float_to_f16(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
  // Subnormal ties: 1.5 * 2^-24 -> 2 * 2^-24 (even), 2.5 * 2^-24 -> 2 * 2^-24.
  EXPECT_EQ(float_to_f16(1.5f * 0x1p-24f), 0x0002);
  EXPECT_EQ(float_to_f16(2.5f * 0x1p-24f), 0x0002);
  // Half the smallest subnormal ties to zero; a bit more rounds up to it.
  EXPECT_EQ(float_to_f16(0x1p-25f), 0x0000);
  EXPECT_EQ(float_to_f16(0x1.01p-25f), 0x0001);
  // The largest subnormal rounds up into the smallest normal when carried.
  EXPECT_EQ(float_to_f16(0x1p-14f - 0x1p-26f), 0x0400);
}

TEST(F16, OverflowAndSpecials) {
  EXPECT_EQ(float_to_f16(65519.0f), 0x7bff);  // below the midpoint to 2^16
  EXPECT_EQ(float_to_f16(65520.0f), 0x7c00);  // the midpoint ties to even: Inf, not the odd 65504
  EXPECT_EQ(float_to_f16(1e10f), 0x7c00);
  EXPECT_EQ(float_to_f16(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(float_to_f16(1e-30f), 0x0000);
  uint16_t nan = float_to_f16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x3ff, 0);
  EXPECT_TRUE(std::isnan(f16_to_float(nan)));
  // A signaling NaN whose payload sits in the low bits must not become Inf.
  uint16_t snan = float_to_f16(std::bit_cast<float>(0x7f800001u));
  EXPECT_TRUE(std::isnan(f16_to_float(snan)));
  EXPECT_TRUE(std::isinf(f16_to_float(0x7c00)));
}

TEST(F16, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    float f = f16_to_float(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(float_to_f16(f), h) << std::hex << h;
  }
}

TEST(BF16, KnownEncodingsAndRounding) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(float_to_bf16(-2.0f), 0xc000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ(float_to_bf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(float_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_EQ(float_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
  EXPECT_EQ(float_to_bf16(std::numeric_limits<float>::max()), 0x7f80);  // rounds to Inf
  EXPECT_EQ(float_to_bf16(std::numeric_limits<float>::infinity()), 0x7f80);
  uint16_t nan = float_to_bf16(std::bit_cast<float>(0x7f800001u));  // payload only in low bits
  EXPECT_TRUE(std::isnan(bf16_to_float(nan)));
}

TEST(BF16, EveryBf16RoundTripsThroughFloat) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    float f = bf16_to_float(static_cast<uint16_t>(b));
    if (std::isnan(f)) continue;
    ASSERT_EQ(float_to_bf16(f), b) << std::hex << b;
  }
}

}  // namespace
}  // namespace kta::engine
