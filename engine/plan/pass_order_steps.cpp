#include "engine/plan/passes.h"

namespace kta::engine {

void order_steps(Plan& plan) {
  for (auto& job : plan.jobs) {
    job.steps.clear();
    for (StepKind k :
         {StepKind::prepare, StepKind::baseline_compile, StepKind::candidate_compile,
          StepKind::visible_correctness, StepKind::visible_performance, StepKind::audit}) {
      job.steps.push_back({k, {}});
    }
    if (job.heldout_enabled && !job.heldout.empty()) {
      job.steps.push_back({StepKind::heldout_correctness, {}});
      job.steps.push_back({StepKind::heldout_performance, {}});
    }
  }
}

}  // namespace kta::engine
