// Output poisoning and content digests: the anti-cheat helpers of the correctness gate.
#pragma once

#include <cstdint>

#include "engine/inputs/host_tensor.h"

namespace kta::engine {

// What an output buffer holds before a launch. A kernel that skips elements leaves the poison
// in place; alternating two patterns catches one that happens to write the poison value itself.
enum class Poison {
  nan,   // floats: quiet NaN; integers and bool: 0x5A bytes (not a plausible result)
  ones,  // every byte 0xFF (a NaN for floats, -1 for signed integers)
};

// The pattern for the n-th launch: even launches NaN, odd launches 0xFF.
Poison poison_for_launch(uint64_t launch_index);

// Overwrites every element of `t` with the pattern.
void apply_poison(HostTensor& t, Poison p);
// One element's bytes under the pattern (element_size() bytes into `out`); lets a device fill a
// buffer without a host copy of the whole tensor.
void poison_element_bytes(model::DType dtype, Poison p, std::byte* out);
// Byte value when the pattern is a single repeated byte (devices' fill()), else -1.
int poison_fill_byte(model::DType dtype, Poison p);

// A fast 64-bit content hash of dtype, shape and bytes (deterministic across platforms).
// Used to detect input mutation and to key the reference-output cache.
uint64_t content_digest(const HostTensor& t);
// The same hash over raw bytes, seeded.
uint64_t digest_bytes(const void* data, size_t size, uint64_t seed = 0);

}  // namespace kta::engine
