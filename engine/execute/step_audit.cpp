// Step: the shape-overfit audit of the candidate's files, before the held-out run, so a report
// can say why a kernel failed to generalize. A hook: the CLI installs the Clang analyzer when
// it is built; without it the step is recorded as skipped with that reason.
#include "engine/execute/job_runner.h"

namespace kta::engine {

StepResult JobRunner::audit() {
  StepResult r;
  if (job_.task.candidate.flavor != model::Flavor::hip) {
    // The analyzer reads HIP; a Triton candidate's generalization is judged by the held-out run.
    r.outcome = StepOutcome::skip;
    r.reason = "audit: the candidate is not HIP (held-out run only)";
    return r;
  }
  if (!options_.audit) {
    r.outcome = StepOutcome::skip;
    r.reason = "audit: analyzer not built";
    return r;
  }
  if (!prepared_) prepared_ = prepare_candidate(job_, workspace_);
  AuditVerdict a = options_.audit(job_, prepared_->files);
  r.payload.report = AuditReport{a.findings, a.summary, a.details, a.parse_error};
  if (!a.parse_error.empty()) {
    // Code the analyzer cannot read is not audited: with a gate that is a failed gate (else an
    // agent could slip past it with code only the real compiler accepts), without one an error.
    r.outcome = job_.task.gates.audit_fail_on ? StepOutcome::fail : StepOutcome::error;
    r.reason = "the analyzer cannot parse " + a.parse_error;
  } else if (!a.ran) {
    r.outcome = StepOutcome::error;
    r.reason = a.summary.empty() ? "audit did not run" : a.summary;
  } else if (a.gate_failed) {
    r.outcome = StepOutcome::fail;
    r.reason = a.summary.empty() ? "the audit gate failed" : a.summary;
  } else {
    r.reason = a.findings > 0 ? a.summary : "";
  }
  return r;
}

}  // namespace kta::engine
