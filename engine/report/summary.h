// The terminal summary of a run: one row per job (task, kind, agent, compile, correct,
// speedup [CI], held-out quadrant, audit, time, first failure) and the run-level figures.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "engine/results/records.h"
#include "engine/score/score.h"

namespace kta::engine {

// `steps` are the run's step records (for per-job time and the audit step's state).
std::string format_run_summary(std::span<const TaskOutcome> outcomes,
                               const std::vector<StepRecord>& steps, const RunScore& score);

}  // namespace kta::engine
