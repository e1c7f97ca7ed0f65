#include "engine/inputs/host_tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kta::engine {
namespace {

using model::DType;

TEST(HostTensor, SizesAndNames) {
  HostTensor t = HostTensor::zeros(DType::bf16, {3, 5});
  EXPECT_EQ(t.numel(), 15u);
  EXPECT_EQ(t.element_size(), 2u);
  EXPECT_EQ(t.bytes.size(), 30u);
  EXPECT_EQ(describe(t), "bf16[3,5]");
  EXPECT_EQ(HostTensor::zeros(DType::f32, {}).numel(), 1u);  // a scalar
  EXPECT_EQ(HostTensor::zeros(DType::f32, {4, 0}).numel(), 0u);
  EXPECT_THROW(HostTensor::zeros(DType::f32, {-1}), std::invalid_argument);
  EXPECT_THROW(HostTensor::zeros(DType::f32, {1ll << 40, 1ll << 40}), std::invalid_argument);
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64, DType::i8, DType::i32,
                  DType::i64, DType::u8, DType::boolean, DType::u32, DType::u64})
    EXPECT_GT(dtype_size(d), 0u) << dtype_name(d);
}

TEST(HostTensor, SetAndReadElementsPerDtype) {
  struct Case {
    DType dtype;
    double in, out;
  };
  for (Case c :
       {Case{DType::f32, 0.1, static_cast<float>(0.1)}, Case{DType::f64, 0.1, 0.1},
        Case{DType::f16, 1.0009765625, 1.0009765625}, Case{DType::bf16, 1.5, 1.5},
        Case{DType::i8, -7.9, -7}, Case{DType::i8, 1000, 127}, Case{DType::u8, -3, 0},
        Case{DType::u8, 255.5, 255}, Case{DType::i32, 3e9, 2147483647}, Case{DType::i64, -42, -42},
        Case{DType::boolean, 0.25, 1}, Case{DType::boolean, 0, 0},
        Case{DType::i32, std::nan(""), 0}, Case{DType::u32, 3e9, 3e9}, Case{DType::u32, -1, 0},
        Case{DType::u64, 0x1p63, 0x1p63}, Case{DType::u64, -1, 0}}) {
    HostTensor t = HostTensor::zeros(c.dtype, {2});
    set_element(t, 1, c.in);
    EXPECT_EQ(element_as_double(t, 1), c.out) << dtype_name(c.dtype) << " " << c.in;
    EXPECT_EQ(element_as_double(t, 0), 0.0);
  }
}

}  // namespace
}  // namespace kta::engine
