// Held-out points: the shapes a candidate is checked on after the agent, never shown to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lang/model.h"

namespace kta::lang {

// The task's held-out points: its explicit points, or those its generator draws from `secret`.
// Deterministic for (task, secret); never equal to a visible point.
std::vector<model::ShapePoint> expand_heldout(const model::Task&, uint64_t secret);

// What a task's held-out generator can draw, whatever the secret: every point any secret could
// give (in the generator's draw order) and each param's smallest and largest value among them.
// Computed by running the generator's own moves over every choice they can make.
struct ParamRange {
  std::string param;
  int64_t lo = 0, hi = 0;
};
struct HeldoutPreview {
  std::vector<model::ShapePoint> points;
  std::vector<ParamRange> ranges;  // in the points' param order
  bool truncated = false;          // more than `cap` draws: points and ranges are a subset
};
// nullopt when the task has no generator (explicit held-out points, or none).
std::optional<HeldoutPreview> preview_heldout(const model::Task&, size_t cap = 1'000'000);

}  // namespace kta::lang
