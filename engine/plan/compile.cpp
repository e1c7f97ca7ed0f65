#include "engine/plan/compile.h"

#include <ostream>

#include "engine/plan/agent_use.h"
#include "engine/plan/passes.h"

namespace kta::engine {

Plan compile_plan(const model::Plan& source, const PlanOptions& options) {
  Plan plan;
  plan.name = source.name;
  plan.file = source.file;
  plan.output = source.output;
  plan.device = options.device;
  plan.warp_size = options.warp_size;
  plan.heldout = source.heldout;
  plan.quick = options.quick;
  plan.sandbox = source.sandbox;
  plan.network = source.network;
  auto debug = [&](std::string_view pass) {
    if (options.debug) dump_plan(plan, pass, *options.debug);
  };

  std::vector<model::Task> tasks = select_tasks(source, options);
  bind_agents(plan, tasks, source);
  debug("bind_agents");
  expand_visible(plan, options);
  debug("expand_visible");
  derive_heldout(plan, options);
  debug("derive_heldout");
  order_steps(plan);
  debug("order_steps");
  hash_steps(plan, options);
  debug("hash_steps");
  return plan;
}

model::Plan plan_for_task(const model::Task& task, const std::filesystem::path& output) {
  model::Plan p;
  p.name = task.name;
  p.file = task.file;
  p.tasks.push_back(task);
  p.agents.push_back(baseline_agent());
  p.output = output;
  return p;
}

}  // namespace kta::engine
