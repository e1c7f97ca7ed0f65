// Step: prepare (the agent's candidate into a workspace). Command agents run here; a resumed
// run never runs them again once this step is recorded: the files they left are in the run
// folder (<run>/candidates/...), where the later steps read them.
#include "engine/agents/agent_run.h"
#include "engine/execute/job_runner.h"

namespace kta::engine {

namespace {

AgentRunOptions agent_options(const Plan& plan, const ExecuteOptions& options) {
  AgentRunOptions o = options.agents;
  o.run_dir = plan.output;
  o.cache_dir = options.cache_dir;
  o.device = plan.device;
  o.warp_size = plan.warp_size;
  o.sandbox = plan.sandbox;
  o.network = plan.network;
  return o;
}

}  // namespace

StepResult JobRunner::prepare() {
  StepResult r;
  PrepareReport report;
  std::optional<AgentRun> agent;
  if (agent_kind(job_.agent) == AgentKind::command) {
    // A task this device cannot run at all (Triton on the cpu device) is skipped before the
    // agent spends time and money on it: compiling the baseline first tells (and is reused by
    // the baseline-compile step).
    if (job_.task.baseline.flavor != model::Flavor::hip) {
      std::string error;
      if (!impl(ImplRole::baseline, &error) && !unavailable_.empty()) {
        r.outcome = StepOutcome::skip;
        r.reason = unavailable_;
        r.payload.unavailable = true;
        return r;
      }
    }
    agent = run_command_agent(job_, workspace_, agent_options(plan_, options_));
    report.agent = agent_record(*agent);
    if (!agent->ran) {
      r.outcome = StepOutcome::error;
      r.reason = agent->error;
      r.payload.report = std::move(report);
      return r;
    }
  }
  prepared_ = prepare_candidate(job_, workspace_);
  if (!prepared_->ok) {
    r.outcome = StepOutcome::error;
    r.reason = prepared_->reason;
    r.payload.report = std::move(report);
    return r;
  }
  // e.g. "no solution, baseline used" on an ok step; a failed agent's workspace is still judged.
  r.reason = agent ? agent->summary() : prepared_->reason;
  for (const auto& f : job_.candidate)
    report.files.push_back({f.editable.filename().string(), f.found});
  report.candidate_hash = job_.candidate_hash;
  r.payload.report = std::move(report);
  return r;
}

}  // namespace kta::engine
