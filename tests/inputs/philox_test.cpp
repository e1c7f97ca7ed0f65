#include "engine/inputs/philox.h"

#include <gtest/gtest.h>

namespace kta::engine {
namespace {

// Known-answer vectors from Random123's kat_vectors (philox4x32 10): counter[4] key[2] -> out[4].
TEST(Philox, KnownAnswerVectors) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Philox, BlockSplitsKeyAndCounter) {
  uint64_t key = 0x299f31d0a4093822ull, index = 0x85a308d3243f6a88ull;
  PhiloxCounter w = philox_block(key, index);
  EXPECT_EQ(w, philox4x32_10({0x243f6a88, 0x85a308d3, 0, 0}, {0xa4093822, 0x299f31d0}));
  EXPECT_NE(philox_block(key, index), philox_block(key, index + 1));
  EXPECT_NE(philox_block(key, index), philox_block(key + 1, index));
}

TEST(Philox, UniformIsOpenInterval) {
  EXPECT_GT(uniform_open01(0, 0), 0.0);
  EXPECT_LT(uniform_open01(0xffffffff, 0xffffffff), 1.0);
  EXPECT_NEAR(uniform_open01(0x80000000, 0), 0.5, 1e-15);
}

}  // namespace
}  // namespace kta::engine
