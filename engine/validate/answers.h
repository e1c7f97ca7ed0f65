// Cheap wrong answers and how much of a tolerance an answer uses: what `kta validate` holds a
// task's tolerance against. A tolerance that admits an answer computed without the work (all
// zeros, an input passed through, the reference in a lower precision, the reference with some
// elements wrong) is too loose; one the task's own baseline nearly exhausts is too tight.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/inputs/host_tensor.h"
#include "lang/model.h"

namespace kta::engine {

// The tensor rounded to the precision one step below its dtype's (f64 -> f32, f32 -> bf16,
// f16 and bf16 -> 3 mantissa bits as in f8 e4m3), kept in its dtype; nullopt for integer and
// bool dtypes. `*format` names the precision ("bf16").
std::optional<HostTensor> lower_precision(const HostTensor& t, std::string* format);

// The tensor with max(1, ceil(fraction * numel)) elements, chosen at random from `seed`, made
// wrong: v -> v + 1 + |v| (floats), v + 1 (integers), !v (bool). `*changed` counts them.
HostTensor perturbed(const HostTensor& t, double fraction, uint64_t seed, size_t* changed);

// How much of the tolerance `got` uses against `want`: the largest |got - want| / (atol + rtol *
// |want|) over the elements, leaving out the floor(max_mismatch * numel) largest (what the rule
// allows to mismatch). 0 when equal; +inf when an element differs where the bound is 0, or is
// NaN or Inf where the other is not; 1 is the edge of the tolerance.
double tolerance_usage(const HostTensor& got, const HostTensor& want, const model::Tolerance& tol);

}  // namespace kta::engine
