#include "engine/plan/compile.h"
#include "engine/plan/passes.h"

namespace kta::engine {

namespace {

// --quick: enough samples for a median, a short budget; for CI and tests, not for reports.
void make_quick(model::Timing& t) {
  t.min_samples = 3;
  t.max_samples = 7;
  t.budget_ns = 150'000'000;
  t.warmup = 1;
  t.max_noise = 0.05;
}

}  // namespace

void expand_visible(Plan& plan, const PlanOptions& options) {
  for (auto& job : plan.jobs) {
    job.visible = job.task.visible;
    if (job.visible.empty()) {
      throw PlanError("task '" + job.task.name + "' has no visible shape points");
    }
    job.seeds = options.seeds ? *options.seeds : job.task.gates.correctness_seeds;
    if (job.seeds < 1) throw PlanError("--seeds must be at least 1");
    if (options.quick) make_quick(job.task.timing);
  }
}

}  // namespace kta::engine
