// Step: prepare (the agent's candidate into a workspace).
#include "engine/execute/job_runner.h"

namespace kta::engine {

StepResult JobRunner::prepare() {
  StepResult r;
  prepared_ = prepare_candidate(job_, workspace_);
  if (!prepared_->ok) {
    r.outcome = StepOutcome::error;
    r.reason = prepared_->reason;
    return r;
  }
  r.reason = prepared_->reason;  // e.g. "no solution, baseline used" on an ok step
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : job_.candidate) {
    files.push_back({{"file", f.editable.filename().string()}, {"found", f.found}});
  }
  r.payload["files"] = files;
  r.payload["candidate_hash"] = job_.candidate_hash;
  return r;
}

}  // namespace kta::engine
