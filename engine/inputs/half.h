// IEEE binary16 (f16) and bfloat16 conversions on the host: float -> half rounds to nearest
// even, NaN stays NaN (quiet), overflow goes to Inf, subnormals are exact. Bit-level, so the
// results are identical on every platform and compiler.
#pragma once

#include <cstdint>

namespace kta::engine {

uint16_t float_to_f16(float f);
float f16_to_float(uint16_t h);
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t b);

}  // namespace kta::engine
