// Helpers shared by the input-generation tests: a tensor to draw into, a shape point, a draw and
// the check of a named error.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "engine/inputs/generate.h"

namespace kta::engine::test {

inline model::Tensor tensor(const std::string& name, model::DType dtype, size_t rank = 1) {
  model::Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape.resize(rank);  // generate_input checks only the rank against the given shape
  return t;
}

inline const model::ShapePoint kPoint = {{"N", 4096}};

inline HostTensor draw(model::DType dtype, const model::Distribution& d, int64_t n = 4096,
                       uint64_t seed = 0, const std::string& name = "x",
                       const std::string& task = "t") {
  return generate_input(tensor(name, dtype), {n}, d, task, kPoint, seed);
}

// Drawing 16 elements of `d` throws std::invalid_argument with exactly `message`.
inline void expect_error(const model::Distribution& d, model::DType dtype,
                         const std::string& message) {
  try {
    draw(dtype, d, 16);
    ADD_FAILURE() << "no error for " << d.name;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

}  // namespace kta::engine::test
