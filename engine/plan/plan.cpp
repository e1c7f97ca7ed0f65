#include "engine/plan/plan.h"

#include <ostream>

namespace kta::engine {

const char* kind_name(model::TaskKind kind) {
  switch (kind) {
    case model::TaskKind::hip2hip:
      return "hip2hip";
    case model::TaskKind::triton2triton:
      return "triton2triton";
    case model::TaskKind::torch2hip:
      return "torch2hip";
  }
  return "?";
}

std::string format_point(const model::ShapePoint& point) {
  std::string s;
  for (const auto& [name, value] : point) {
    if (!s.empty()) s += ", ";
    s += name + "=" + std::to_string(value);
  }
  return s.empty() ? "(scalar)" : s;
}

std::string TaskJob::id() const {
  return task.name + "/" + agent_label + "/" + std::to_string(repeat);
}

namespace {

void print_job(const TaskJob& job, std::ostream& out, bool keys) {
  out << "  job " << job.id() << "\n";
  out << "    candidate:";
  for (const auto& f : job.candidate) {
    out << " " << f.editable.filename().string();
    if (!f.found) out << " (no solution: baseline)";
  }
  out << "\n    seeds: " << job.seeds << "   timing: min " << job.task.timing.min_samples
      << " / max " << job.task.timing.max_samples << " samples, noise "
      << job.task.timing.max_noise * 100 << "%, budget " << job.task.timing.budget_ns / 1e9
      << " s\n";
  out << "    visible points (" << job.visible.size() << "):";
  for (const auto& p : job.visible) out << " [" << format_point(p) << "]";
  // Held-out values never appear in anything printed: only how many there are.
  out << "\n    held-out points: "
      << (job.heldout_enabled ? std::to_string(job.heldout.size()) : std::string("off")) << "\n";
  out << "    steps:";
  if (!keys) {
    for (const auto& s : job.steps) out << " " << step_name(s.kind);
    out << "\n";
  } else {
    out << "\n";
    for (const auto& s : job.steps) {
      out << "      " << step_name(s.kind) << "  " << (s.key.empty() ? "-" : s.key) << "\n";
    }
  }
}

}  // namespace

std::string device_identity(const std::string& device, int warp_size) {
  return warp_size == 0 ? device : device + "/warp" + std::to_string(warp_size);
}

void explain(const Plan& plan, std::ostream& out) {
  out << "plan " << plan.name << ": " << plan.jobs.size() << " job(s) on device " << plan.device
      << (plan.warp_size != 0 ? " (warp " + std::to_string(plan.warp_size) + ")" : "")
      << (plan.heldout ? ", held-out on" : ", held-out off") << (plan.quick ? ", quick timing" : "")
      << "\n";
  out << "  output: " << plan.output.string() << "\n";
  for (const auto& job : plan.jobs) print_job(job, out, false);
  if (!plan.hash.empty()) out << "  plan hash: " << plan.hash << "\n";
}

void dump_plan(const Plan& plan, std::string_view after_pass, std::ostream& out) {
  out << "--- plan after " << after_pass << " ---\n";
  for (const auto& job : plan.jobs) print_job(job, out, true);
}

}  // namespace kta::engine
