// A tensor in host memory: the engine's currency between input generation, devices, the
// reference cache and the correctness check. Bytes are little-endian, row-major, packed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lang/model.h"

namespace kta::engine {

// Bytes per element of a dtype (bool is one byte holding 0 or 1).
size_t dtype_size(model::DType dtype);
// The dtype's name as the language spells it: "f32", "bf16", "bool", ...
const char* dtype_name(model::DType dtype);

// Row-major tensor data on the host; `bytes.size() == numel() * element_size()`.
struct HostTensor {
  model::DType dtype = model::DType::f32;
  std::vector<int64_t> shape;  // empty: a scalar (one element)
  std::vector<std::byte> bytes;

  size_t numel() const;
  size_t element_size() const { return dtype_size(dtype); }

  // A zero-filled tensor of this dtype and shape (negative extents throw std::invalid_argument).
  static HostTensor zeros(model::DType dtype, std::vector<int64_t> shape);
};

// Element i converted to double (f16/bf16 widened exactly, integers as their value, bool as
// its raw byte so that a byte other than 0 or 1 — garbage, or poison — never reads as valid).
double element_as_double(const HostTensor& t, size_t i);
// Stores `v` into element i, converting to the tensor's dtype (rounding to nearest even for
// f16/bf16/f32, truncation toward zero and saturation for integers, v != 0 for bool).
void set_element(HostTensor& t, size_t i, double v);

// Bulk forms of the two above for elements [begin, begin + n): one dtype dispatch per call
// instead of per element (input generation and comparison of large tensors).
void load_elements(const HostTensor& t, size_t begin, size_t n, double* out);
void store_elements(HostTensor& t, size_t begin, size_t n, const double* values);

// "f32[4096]", "bf16[16,8]" — for messages.
std::string describe(const HostTensor& t);

}  // namespace kta::engine
