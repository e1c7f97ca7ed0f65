// Degenerate-task detection: reference outputs that make a benchmark meaningless because a
// candidate could pass without computing anything. `kta eval` refuses such a task before any
// agent runs (its prepare step); `kta validate` reports it at every point.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "engine/inputs/host_tensor.h"
#include "lang/model.h"

namespace kta::engine {

// One output's reference values for several seeds of the same shape point. Returns the first
// reason the output is degenerate, or nullopt:
//   "reference output is all zeros within tolerance: an all-zero output passes"
//   "reference output is constant (every element is 0.5)"                        (numel > 1)
//   "reference output does not depend on the seed: seed 0's output passes for seed 1"
//   "reference output has NaN at index 3; no output can match it without nan_equal"
std::optional<std::string> degenerate_reference(std::span<const HostTensor> by_seed,
                                                const model::Tolerance& tol);

}  // namespace kta::engine
