// Held-out points: the shapes a candidate is checked on after the agent, never shown to it.
#pragma once

#include <cstdint>
#include <vector>

#include "lang/model.h"

namespace kta::lang {

// The task's held-out points: its explicit points, or those its generator draws from `secret`.
// Deterministic for (task, secret); never equal to a visible point.
std::vector<model::ShapePoint> expand_heldout(const model::Task&, uint64_t secret);

}  // namespace kta::lang
