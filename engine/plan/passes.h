// The plan passes, in the order compile_plan runs them. Each reads and refines the Plan.
#pragma once

#include "engine/plan/plan.h"

namespace kta::engine {

// Copies plan-level settings and keeps the tasks named by --only (unknown names are errors).
std::vector<model::Task> select_tasks(const model::Plan& source, const PlanOptions& options);
// One job per task x agent x repeat (the plan's timing, when set, replaces each task's);
// resolves where each candidate's files come from.
void bind_agents(Plan& plan, const std::vector<model::Task>& tasks, const model::Plan& source);
// Visible points from the checked grid; seeds and timing overrides (--seeds, --quick).
void expand_visible(Plan& plan, const PlanOptions& options);
// Held-out points: explicit ones plus generated ones from the run secret.
void derive_heldout(Plan& plan, const PlanOptions& options);
// The fixed step sequence per job (held-out steps only when held-out is on and has points).
void order_steps(Plan& plan);
// Content hash per step: task hash + candidate file hashes + device + options (+ held-out
// points for held-out steps), so identical work is recognized on --resume.
void hash_steps(Plan& plan, const PlanOptions& options);

}  // namespace kta::engine
