// Philox4x32-10 (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11): a
// counter-based PRNG. Output block i depends only on (key, counter i), so any slice of a
// tensor can be drawn independently, in parallel, with identical results everywhere.
#pragma once

#include <array>
#include <cstdint>

namespace kta::engine {

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

// Ten rounds of Philox4x32 on one counter block.
PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key);

// The four 32-bit outputs for a 64-bit element counter (counter = {lo, hi, 0, 0}).
inline PhiloxCounter philox_block(uint64_t key, uint64_t index) {
  return philox4x32_10({static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), 0, 0},
                       {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
}

// A uniform double in the open interval (0, 1) from two 32-bit words: 52 random bits centred
// in their cell, so neither 0 nor 1 can come out (log(u) stays finite).
inline double uniform_open01(uint32_t hi, uint32_t lo) {
  uint64_t bits = ((static_cast<uint64_t>(hi) << 20) ^ (lo >> 12)) & ((uint64_t{1} << 52) - 1);
  return (static_cast<double>(bits) + 0.5) * 0x1.0p-52;
}

}  // namespace kta::engine
