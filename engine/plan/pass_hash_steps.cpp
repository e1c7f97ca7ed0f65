#include "engine/plan/passes.h"
#include "lang/hash.h"

namespace kta::engine {

namespace {

std::string timing_text(const model::Timing& t) {
  return std::to_string(static_cast<int>(t.mode)) + "/" + std::to_string(t.min_samples) + "/" +
         std::to_string(t.max_samples) + "/" + std::to_string(t.max_noise) + "/" +
         std::to_string(t.budget_ns) + "/" + std::to_string(t.warmup);
}

std::string points_text(const std::vector<model::ShapePoint>& points) {
  std::string s;
  for (const auto& p : points) s += format_point(p) + ";";
  return s;
}

}  // namespace

void hash_steps(Plan& plan, const PlanOptions& options) {
  lang::ContentHasher whole;
  for (auto& job : plan.jobs) {
    for (auto& step : job.steps) {
      lang::ContentHasher h;
      h.field("step", step_name(step.kind));
      h.field("task", job.task.name).field("task-hash", job.task.content_hash);
      h.field("agent", job.agent_label).add(static_cast<int64_t>(job.repeat));
      h.field("device", device_identity(options.device, options.warp_size));
      // Baseline compile depends on nothing the agent produced; the rest does.
      if (step.kind != StepKind::baseline_compile) h.field("candidate", job.candidate_hash);
      h.add(static_cast<int64_t>(job.seeds)).field("timing", timing_text(job.task.timing));
      h.field("visible", points_text(job.visible));
      if (step.kind == StepKind::heldout_correctness ||
          step.kind == StepKind::heldout_performance) {
        h.field("heldout", points_text(job.heldout));
      }
      step.key = h.hex();
      whole.field("key", step.key);
    }
  }
  plan.hash = whole.hex();
}

}  // namespace kta::engine
