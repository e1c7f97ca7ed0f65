#include "engine/agents/agent.h"
#include "engine/plan/compile.h"
#include "engine/plan/hash.h"
#include "engine/plan/passes.h"

namespace kta::engine {

void bind_agents(Plan& plan, const std::vector<model::Task>& tasks, const model::Plan& source) {
  std::vector<model::AgentUse> agents = source.agents;
  if (agents.empty()) agents.push_back(baseline_agent());
  if (source.repeat < 1) throw PlanError("plan repeat must be at least 1");
  std::filesystem::path base = source.file.empty() ? std::filesystem::current_path()
                                                   : source.file.parent_path();
  for (const auto& task : tasks) {
    for (const auto& agent : agents) {
      for (int r = 0; r < source.repeat; ++r) {
        TaskJob job;
        job.task = task;
        if (source.timing) job.task.timing = *source.timing;  // the plan's timing wins
        job.agent = agent;
        job.agent_label = agent_label(agent);
        job.repeat = r;
        job.candidate = resolve_candidate(agent, task, base);
        ContentHasher h;
        for (const auto& f : job.candidate) {
          h.field("editable", f.editable.filename().string());
          h.file(f.source);
        }
        job.candidate_hash = h.hex();
        plan.jobs.push_back(std::move(job));
      }
    }
  }
}

}  // namespace kta::engine
