// Step: prepare (the agent's candidate into a workspace). Command agents run here; a resumed
// run never runs them again once this step is recorded: the files they left are in the run
// folder (<run>/candidates/...), where the later steps read them.
#include <algorithm>

#include "engine/agents/agent_run.h"
#include "engine/check/degenerate.h"
#include "engine/execute/job_runner.h"
#include "lang/eval.h"

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

std::optional<std::string> JobRunner::degenerate_task() {
  auto span = profile_.span("task check");
  // Two seeds at least: a reference that is the same for every seed is one a candidate can
  // return precomputed.
  int seeds = std::max(2, job_.seeds);
  // A task found sound once is sound for as long as its content, points and seeds stay (the
  // verdict follows from the references alone): a warm run skips drawing, loading and scanning
  // every visible reference again (4.7 s of a warm rmsnorm run on an H100).
  const std::string verdict = ReferenceCache::task_check_key(
      job_.task, job_.visible, seeds, device_identity(plan_.device, plan_.warp_size));
  if (cache_.recall(verdict)) return std::nullopt;
  bool complete = true;  // every output of every point judged
  for (size_t i = 0; i < job_.visible.size(); ++i) {
    PointSpec spec;
    try {
      spec = make_point_spec(job_.task, job_.visible[i]);
    } catch (const std::exception&) {
      return std::nullopt;  // the correctness step names a point that cannot be bound
    }
    std::map<size_t, std::vector<HostTensor>> by_seed;
    for (int seed = 0; seed < seeds; ++seed) {
      std::shared_ptr<const HostSet> in = inputs(spec, static_cast<uint64_t>(seed));
      std::string error;
      auto want = reference(spec, static_cast<uint64_t>(seed), *in, &error);
      // A reference that does not run is the correctness step's to report, with its reason.
      if (!want) return std::nullopt;
      for (size_t t = 0; t < job_.task.tensors.size(); ++t)
        if (is_output(job_.task.tensors[t])) by_seed[t].push_back((*want)[t]);
    }
    for (auto& [t, outputs] : by_seed) {
      const model::Tensor& tensor = job_.task.tensors[t];
      model::Tolerance tol = tolerance_for(job_.task, tensor.name);
      try {
        tol = lang::tolerance_at(tol, job_.visible[i], job_.task);
      } catch (const std::exception&) {
        complete = false;
        continue;  // the correctness step names a tolerance that cannot be evaluated
      }
      if (auto reason = degenerate_reference(outputs, tol))
        return "'" + tensor.name + "' at " + point_label(job_.visible, i, false) + ": " + *reason;
    }
  }
  if (complete) cache_.remember(verdict);
  return std::nullopt;
}

StepResult JobRunner::prepare() {
  StepResult r;
  PrepareReport report;
  std::optional<AgentRun> agent;
  // A Python candidate's runner (triton2triton) starts now, on a GPU, beside the trusted runner
  // that the baseline's compile starts, instead of after it (RunnerPool starts a role's runner
  // as its first device is made): each start is seconds of `import torch` and GPU set-up.
  if (job_.task.candidate.flavor != model::Flavor::hip && plan_.device.starts_with("hip")) {
    try {
      device(device_role(ImplRole::candidate), job_.task.candidate.flavor);
    } catch (const std::exception&) {
      // The candidate's compile step meets the same failure and names it.
    }
  }
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
  // A degenerate task is refused before any agent runs: whatever the candidate did would pass.
  if (auto unsound = degenerate_task()) {
    r.outcome = StepOutcome::skip;
    r.reason = "task refused: " + *unsound + " (`kta validate` checks the whole task)";
    r.payload.unavailable = true;
    return r;
  }
  if (agent_kind(job_.agent) == AgentKind::command) {
    agent = run_command_agent(job_, workspace_, agent_options(plan_, options_));
    report.agent = agent_record(*agent);
    if (!agent->ran || !agent->failure.empty()) {
      r.outcome = StepOutcome::error;
      r.reason = agent->ran ? agent->failure : agent->error;
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
