// Plan compilation: checked model -> Plan, as a linear script of passes. Each pass is a free
// function in its own file (engine/plan/pass_*.cpp) declared in passes.h.
#pragma once

#include <stdexcept>

#include "engine/plan/plan.h"

namespace kta::engine {

// Thrown for user mistakes found while planning (e.g. --only naming no task); the CLI prints
// the message as a diagnostic.
struct PlanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Plan compile_plan(const model::Plan& source, const PlanOptions& options);

// A plan that evaluates one task's baseline (for `kta eval task.kta`).
model::Plan plan_for_task(const model::Task& task, const std::filesystem::path& output);

}  // namespace kta::engine
