#include "engine/inputs/host_tensor.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "engine/inputs/half.h"

namespace kta::engine {

using model::DType;

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::f16:
    case DType::bf16:
      return 2;
    case DType::f32:
    case DType::i32:
    case DType::u32:
      return 4;
    case DType::f64:
    case DType::i64:
    case DType::u64:
      return 8;
    case DType::i8:
    case DType::u8:
    case DType::boolean:
      return 1;
  }
  return 0;
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::f16:
      return "f16";
    case DType::bf16:
      return "bf16";
    case DType::f32:
      return "f32";
    case DType::f64:
      return "f64";
    case DType::i8:
      return "i8";
    case DType::i32:
      return "i32";
    case DType::i64:
      return "i64";
    case DType::u8:
      return "u8";
    case DType::boolean:
      return "bool";
    case DType::u32:
      return "u32";
    case DType::u64:
      return "u64";
  }
  return "?";
}

size_t HostTensor::numel() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

HostTensor HostTensor::zeros(DType dtype, std::vector<int64_t> shape) {
  size_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument(fmt::format("negative extent {} in a tensor shape", d));
    if (d != 0 && n > std::numeric_limits<size_t>::max() / 16 / static_cast<size_t>(d))
      throw std::invalid_argument("tensor shape too large");
    n *= static_cast<size_t>(d);
  }
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.bytes.assign(n * dtype_size(dtype), std::byte{0});
  return t;
}

namespace {

template <class T>
T load(const HostTensor& t, size_t i) {
  T v;
  std::memcpy(&v, t.bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <class T>
void store(HostTensor& t, size_t i, T v) {
  std::memcpy(t.bytes.data() + i * sizeof(T), &v, sizeof(T));
}

// Rounds toward zero and saturates; NaN becomes 0.
template <class I>
I to_integer(double v) {
  if (std::isnan(v)) return 0;
  double lo = static_cast<double>(std::numeric_limits<I>::min());
  double hi = static_cast<double>(std::numeric_limits<I>::max());
  if (v <= lo) return std::numeric_limits<I>::min();
  if (v >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(std::trunc(v));
}

}  // namespace

double element_as_double(const HostTensor& t, size_t i) {
  switch (t.dtype) {
    case DType::f16:
      return f16_to_float(load<uint16_t>(t, i));
    case DType::bf16:
      return bf16_to_float(load<uint16_t>(t, i));
    case DType::f32:
      return load<float>(t, i);
    case DType::f64:
      return load<double>(t, i);
    case DType::i8:
      return load<int8_t>(t, i);
    case DType::i32:
      return load<int32_t>(t, i);
    case DType::i64:
      return static_cast<double>(load<int64_t>(t, i));
    case DType::u8:
      return load<uint8_t>(t, i);
    case DType::boolean:
      return load<uint8_t>(t, i);  // raw: a byte other than 0/1 is garbage
    case DType::u32:
      return load<uint32_t>(t, i);
    case DType::u64:
      return static_cast<double>(load<uint64_t>(t, i));
  }
  return 0;
}

void set_element(HostTensor& t, size_t i, double v) {
  switch (t.dtype) {
    case DType::f16:
      store(t, i, float_to_f16(static_cast<float>(v)));
      break;
    case DType::bf16:
      store(t, i, float_to_bf16(static_cast<float>(v)));
      break;
    case DType::f32:
      store(t, i, static_cast<float>(v));
      break;
    case DType::f64:
      store(t, i, v);
      break;
    case DType::i8:
      store(t, i, to_integer<int8_t>(v));
      break;
    case DType::i32:
      store(t, i, to_integer<int32_t>(v));
      break;
    case DType::i64:
      store(t, i, to_integer<int64_t>(v));
      break;
    case DType::u8:
      store(t, i, to_integer<uint8_t>(v));
      break;
    case DType::boolean:
      store(t, i, static_cast<uint8_t>(v != 0 ? 1 : 0));
      break;
    case DType::u32:
      store(t, i, to_integer<uint32_t>(v));
      break;
    case DType::u64:
      store(t, i, to_integer<uint64_t>(v));
      break;
  }
}

namespace {

template <class T, class F>
void load_loop(const HostTensor& t, size_t begin, size_t n, double* out, F widen) {
  const std::byte* p = t.bytes.data() + begin * sizeof(T);
  for (size_t k = 0; k < n; ++k) {
    T v;
    std::memcpy(&v, p + k * sizeof(T), sizeof(T));
    out[k] = widen(v);
  }
}

template <class T, class F>
void store_loop(HostTensor& t, size_t begin, size_t n, const double* values, F narrow) {
  std::byte* p = t.bytes.data() + begin * sizeof(T);
  for (size_t k = 0; k < n; ++k) {
    T v = narrow(values[k]);
    std::memcpy(p + k * sizeof(T), &v, sizeof(T));
  }
}

}  // namespace

void load_elements(const HostTensor& t, size_t begin, size_t n, double* out) {
  auto same = [](auto v) { return static_cast<double>(v); };
  switch (t.dtype) {
    case DType::f16:
      return load_loop<uint16_t>(t, begin, n, out,
                                 [](uint16_t h) { return double{f16_to_float(h)}; });
    case DType::bf16:
      return load_loop<uint16_t>(t, begin, n, out,
                                 [](uint16_t b) { return double{bf16_to_float(b)}; });
    case DType::f32:
      return load_loop<float>(t, begin, n, out, same);
    case DType::f64:
      return load_loop<double>(t, begin, n, out, same);
    case DType::i8:
      return load_loop<int8_t>(t, begin, n, out, same);
    case DType::i32:
      return load_loop<int32_t>(t, begin, n, out, same);
    case DType::i64:
      return load_loop<int64_t>(t, begin, n, out, same);
    case DType::u8:
    case DType::boolean:
      return load_loop<uint8_t>(t, begin, n, out, same);
    case DType::u32:
      return load_loop<uint32_t>(t, begin, n, out, same);
    case DType::u64:
      return load_loop<uint64_t>(t, begin, n, out, same);
  }
}

void store_elements(HostTensor& t, size_t begin, size_t n, const double* values) {
  switch (t.dtype) {
    case DType::f16:
      return store_loop<uint16_t>(t, begin, n, values,
                                  [](double v) { return float_to_f16(static_cast<float>(v)); });
    case DType::bf16:
      return store_loop<uint16_t>(t, begin, n, values,
                                  [](double v) { return float_to_bf16(static_cast<float>(v)); });
    case DType::f32:
      return store_loop<float>(t, begin, n, values, [](double v) { return static_cast<float>(v); });
    case DType::f64:
      return store_loop<double>(t, begin, n, values, [](double v) { return v; });
    case DType::i8:
      return store_loop<int8_t>(t, begin, n, values, to_integer<int8_t>);
    case DType::i32:
      return store_loop<int32_t>(t, begin, n, values, to_integer<int32_t>);
    case DType::i64:
      return store_loop<int64_t>(t, begin, n, values, to_integer<int64_t>);
    case DType::u8:
      return store_loop<uint8_t>(t, begin, n, values, to_integer<uint8_t>);
    case DType::boolean:
      return store_loop<uint8_t>(t, begin, n, values,
                                 [](double v) { return static_cast<uint8_t>(v != 0 ? 1 : 0); });
    case DType::u32:
      return store_loop<uint32_t>(t, begin, n, values, to_integer<uint32_t>);
    case DType::u64:
      return store_loop<uint64_t>(t, begin, n, values, to_integer<uint64_t>);
  }
}

std::string describe(const HostTensor& t) {
  return fmt::format("{}[{}]", dtype_name(t.dtype), fmt::join(t.shape, ","));
}

}  // namespace kta::engine
