#include <map>

#include "engine/plan/agent_use.h"
#include "engine/plan/compile.h"
#include "engine/plan/passes.h"
#include "lang/hash.h"

namespace kta::engine {

namespace {

// A command agent's candidate is not known before it runs: its steps are keyed by what was asked
// of it (the agent use and the repeat), and resume reuses the files taken back into the run.
std::string command_candidate_hash(const TaskJob& job) {
  lang::ContentHasher h;
  h.field("agent", job.agent.decl.name).field("label", job.agent_label);
  for (const auto& part : job.agent.decl.command) h.field("command", part);
  for (const auto& [k, v] : job.agent.decl.env) h.field("env", k + "=" + v);
  for (const auto& f : job.agent.decl.files) h.field("file", f.path).field("content", f.content);
  for (const auto& l : job.agent.decl.logins) h.field("login", l);
  for (const auto& [k, v] : job.agent.args) h.field("arg", k + "=" + placeholder_text(v));
  h.add(job.agent.decl.timeout_ns).add(static_cast<int64_t>(job.repeat));
  return h.hex();
}

// "claude_code", then "claude_code-2" for a second use of the same agent in one plan.
std::vector<std::string> unique_labels(const std::vector<model::AgentUse>& agents) {
  std::vector<std::string> labels;
  std::map<std::string, int> seen;
  for (const auto& a : agents) {
    std::string l = agent_label(a);
    int n = ++seen[l];
    labels.push_back(n == 1 ? l : l + "-" + std::to_string(n));
  }
  return labels;
}

}  // namespace

void bind_agents(Plan& plan, const std::vector<model::Task>& tasks, const model::Plan& source) {
  std::vector<model::AgentUse> agents = source.agents;
  if (agents.empty()) agents.push_back(baseline_agent());
  if (source.repeat < 1) throw PlanError("plan repeat must be at least 1");
  std::filesystem::path base =
      source.file.empty() ? std::filesystem::current_path() : source.file.parent_path();
  std::vector<std::string> labels = unique_labels(agents);
  for (const auto& task : tasks) {
    for (size_t a = 0; a < agents.size(); ++a) {
      const model::AgentUse& agent = agents[a];
      for (int r = 0; r < source.repeat; ++r) {
        TaskJob job;
        job.task = task;
        if (source.timing) job.task.timing = *source.timing;  // the plan's timing wins
        job.agent = agent;
        job.agent_label = labels[a];
        job.repeat = r;
        job.candidate = resolve_candidate(agent, task, base);
        if (agent_kind(agent) == AgentKind::command) {
          if (auto bad = unknown_placeholders(agent); !bad.empty())
            throw PlanError("agent '" + job.agent_label + "': unknown placeholder '{" +
                            bad.front() + "}'");
          for (auto& f : job.candidate)
            f.source = plan.output / "candidates" / job_path(job) / f.editable.filename();
          job.candidate_hash = command_candidate_hash(job);
          plan.jobs.push_back(std::move(job));
          continue;
        }
        lang::ContentHasher h;
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
