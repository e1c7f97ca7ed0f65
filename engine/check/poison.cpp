#include "engine/check/poison.h"

#include <cstring>

#include "lang/hash.h"

namespace kta::engine {

using model::DType;

Poison poison_for_launch(uint64_t launch_index) {
  return launch_index % 2 == 0 ? Poison::nan : Poison::ones;
}

void poison_element_bytes(DType dtype, Poison p, std::byte* out) {
  size_t size = dtype_size(dtype);
  if (p == Poison::ones) {
    std::memset(out, 0xFF, size);
    return;
  }
  // Quiet NaNs, little-endian.
  switch (dtype) {
    case DType::f16: {
      uint16_t v = 0x7e00;
      std::memcpy(out, &v, 2);
      return;
    }
    case DType::bf16: {
      uint16_t v = 0x7fc0;
      std::memcpy(out, &v, 2);
      return;
    }
    case DType::f32: {
      uint32_t v = 0x7fc00000;
      std::memcpy(out, &v, 4);
      return;
    }
    case DType::f64: {
      uint64_t v = 0x7ff8000000000000ull;
      std::memcpy(out, &v, 8);
      return;
    }
    default:
      std::memset(out, 0x5A, size);
      return;
  }
}

int poison_fill_byte(DType dtype, Poison p) {
  if (p == Poison::ones) return 0xFF;
  switch (dtype) {
    case DType::f16:
    case DType::bf16:
    case DType::f32:
    case DType::f64:
      return -1;
    default:
      return 0x5A;
  }
}

void apply_poison(HostTensor& t, Poison p) {
  size_t size = t.element_size();
  if (int b = poison_fill_byte(t.dtype, p); b >= 0) {
    std::memset(t.bytes.data(), b, t.bytes.size());
    return;
  }
  std::byte one[8];
  poison_element_bytes(t.dtype, p, one);
  for (size_t off = 0; off + size <= t.bytes.size(); off += size)
    std::memcpy(t.bytes.data() + off, one, size);
}

uint64_t digest_bytes(const void* data, size_t size, uint64_t seed) {
  return lang::hash_bytes(data, size, seed);
}

uint64_t content_digest(const HostTensor& t) {
  uint64_t h = lang::hash_mix(static_cast<uint64_t>(t.dtype) + 1, t.shape.size());
  for (int64_t d : t.shape) h = lang::hash_mix(h, static_cast<uint64_t>(d));
  return lang::hash_bytes(t.bytes.data(), t.bytes.size(), h);
}

}  // namespace kta::engine
