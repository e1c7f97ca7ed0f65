#include "engine/inputs/half.h"

#include <bit>

namespace kta::engine {

namespace {

// Rounds `value >> shift` to nearest, ties to even.
uint32_t shift_round_even(uint32_t value, int shift) {
  uint32_t q = value >> shift;
  uint32_t rem = value & ((uint32_t{1} << shift) - 1);
  uint32_t half = uint32_t{1} << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  return q;
}

}  // namespace

uint16_t float_to_f16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  auto sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t absx = x & 0x7fffffff;
  if (absx > 0x7f800000)  // NaN: keep it quiet, keep the payload's top bits
    return static_cast<uint16_t>(sign | 0x7e00 | ((absx >> 13) & 0x3ff));
  if (absx >= 0x477ff000) return sign | 0x7c00;  // >= 65520 rounds to Inf
  uint32_t exp = absx >> 23;
  if (exp < 113) {              // below 2^-14: a half subnormal (or zero)
    if (exp == 0) return sign;  // float subnormals are far below half's smallest subnormal
    uint32_t mant = (absx & 0x7fffff) | 0x800000;
    int shift = 126 - static_cast<int>(exp);  // value * 2^24 = mant >> shift
    if (shift > 24) return sign;              // < 2^-25: rounds to zero
    return static_cast<uint16_t>(sign | shift_round_even(mant, shift));
  }
  uint32_t q = ((exp - 112) << 10 << 13) | (absx & 0x7fffff);
  // A carry out of the mantissa correctly bumps the exponent.
  return static_cast<uint16_t>(sign | shift_round_even(q, 13));
}

float f16_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0) {
    float v = static_cast<float>(mant) * 0x1.0p-24f;  // exact
    return std::bit_cast<float>(std::bit_cast<uint32_t>(v) | sign);
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000 | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t float_to_bf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((x >> 16) | 0x0040);
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);  // overflow carries into Inf
}

float bf16_to_float(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

}  // namespace kta::engine
