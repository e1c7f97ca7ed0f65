// Deterministic input generation: element i of a tensor is a pure function of (task, shape
// point, seed, tensor name, i), drawn through Philox4x32-10 from counter i / 2 (each 128-bit
// block yields two values: two uniforms, or a Box-Muller pair). Values are computed in double
// with portable arithmetic (engine/inputs/portable_math.h), then converted to the dtype (f16 and
// bf16 through float, rounding to nearest even). Same bytes on every device, run, platform and
// thread split.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/inputs/host_tensor.h"
#include "lang/model.h"

namespace kta::engine {

// The Philox key for one tensor of one (task, shape point, seed) — a 64-bit hash of all four.
uint64_t input_key(std::string_view task, const model::ShapePoint& point, uint64_t seed,
                   std::string_view tensor);

// Names of the distributions generate_input understands (for kta check and messages).
const std::vector<std::string>& known_distributions();

// Draws the whole tensor. Throws std::invalid_argument with a named reason for an unknown
// distribution, a missing or bad argument (e.g. "uniform: lo (2) must be < hi (1)") or a
// negative extent.
HostTensor generate_input(const model::Tensor& tensor, const std::vector<int64_t>& shape,
                          const model::Distribution& dist, std::string_view task,
                          const model::ShapePoint& point, uint64_t seed);

// Fills elements [begin, end) of `out` (already sized) — the unit generate_input splits across
// threads; exposed so tests can prove slices equal the whole.
void generate_slice(HostTensor& out, const model::Distribution& dist, uint64_t key, size_t begin,
                    size_t end);

}  // namespace kta::engine
