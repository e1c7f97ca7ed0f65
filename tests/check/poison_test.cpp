#include "engine/check/poison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "engine/check/compare.h"

namespace kta::engine {
namespace {

using model::DType;

const DType kAll[] = {DType::f16, DType::bf16, DType::f32,     DType::f64, DType::i8, DType::i32,
                      DType::i64, DType::u8,   DType::boolean, DType::u32, DType::u64};

TEST(Poison, AlternatesByLaunch) {
  EXPECT_EQ(poison_for_launch(0), Poison::nan);
  EXPECT_EQ(poison_for_launch(1), Poison::ones);
  EXPECT_EQ(poison_for_launch(2), Poison::nan);
  EXPECT_EQ(poison_for_launch(7), Poison::ones);
}

TEST(Poison, FloatsBecomeNaNUnderBothPatterns) {
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64})
    for (Poison p : {Poison::nan, Poison::ones}) {
      HostTensor t = HostTensor::zeros(d, {5});
      apply_poison(t, p);
      for (size_t i = 0; i < 5; ++i)
        EXPECT_TRUE(std::isnan(element_as_double(t, i))) << dtype_name(d);
    }
}

TEST(Poison, TwoPatternsDifferForEveryDtype) {
  for (DType d : kAll) {
    HostTensor a = HostTensor::zeros(d, {3}), b = a;
    apply_poison(a, Poison::nan);
    apply_poison(b, Poison::ones);
    EXPECT_NE(a.bytes, b.bytes) << dtype_name(d);
    EXPECT_NE(a.bytes, HostTensor::zeros(d, {3}).bytes) << dtype_name(d);
  }
}

TEST(Poison, FillByteAgreesWithElementBytes) {
  for (DType d : kAll)
    for (Poison p : {Poison::nan, Poison::ones}) {
      std::byte e[8];
      poison_element_bytes(d, p, e);
      int fill = poison_fill_byte(d, p);
      if (fill < 0) continue;
      for (size_t k = 0; k < dtype_size(d); ++k) EXPECT_EQ(static_cast<int>(e[k]), fill);
    }
}

// A kernel that leaves an element untouched is caught under either pattern, even when the
// untouched value happens to equal the reference under one of them.
TEST(Poison, UntouchedElementsFailTheCheck) {
  for (DType d : kAll) {
    HostTensor want = HostTensor::zeros(d, {4});
    for (size_t i = 0; i < 4; ++i) set_element(want, i, 1);
    int caught = 0;
    for (uint64_t launch = 0; launch < 2; ++launch) {
      HostTensor out = want;
      HostTensor poisoned = HostTensor::zeros(d, {4});
      apply_poison(poisoned, poison_for_launch(launch));
      // The "kernel" writes elements 0..2 and skips element 3.
      std::copy(poisoned.bytes.end() - static_cast<long>(dtype_size(d)), poisoned.bytes.end(),
                out.bytes.end() - static_cast<long>(dtype_size(d)));
      caught += !compare(out, want, model::Tolerance{}).pass;
    }
    EXPECT_EQ(caught, 2) << dtype_name(d);
  }
}

TEST(ContentDigest, SensitiveToBytesShapeAndDtype) {
  HostTensor a = HostTensor::zeros(DType::f32, {4, 4});
  uint64_t base = content_digest(a);
  EXPECT_EQ(content_digest(a), base);
  HostTensor b = a;
  b.bytes[37] = std::byte{1};
  EXPECT_NE(content_digest(b), base);
  HostTensor c = a;
  c.shape = {2, 8};
  EXPECT_NE(content_digest(c), base);
  HostTensor d = a;
  d.dtype = DType::i32;
  EXPECT_NE(content_digest(d), base);
}

TEST(ContentDigest, EveryByteMattersAtEveryLength) {
  std::set<uint64_t> seen;
  for (size_t n = 0; n < 70; ++n) {
    std::vector<unsigned char> buf(n, 0);
    ASSERT_TRUE(seen.insert(digest_bytes(buf.data(), n)).second) << n;  // lengths differ
    for (size_t k = 0; k < n; ++k) {
      buf[k] = 0x80;
      ASSERT_TRUE(seen.insert(digest_bytes(buf.data(), n)).second) << n << " " << k;
      buf[k] = 0;
    }
  }
  EXPECT_NE(digest_bytes("abc", 3, 1), digest_bytes("abc", 3, 2));
}

}  // namespace
}  // namespace kta::engine
