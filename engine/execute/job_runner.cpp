#include "engine/execute/job_runner.h"

#include <algorithm>
#include <chrono>

#include "engine/measure/bootstrap.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

StepResult skipped(std::string reason) {
  StepResult r;
  r.outcome = StepOutcome::skip;
  r.reason = std::move(reason);
  return r;
}

}  // namespace

JobRunner::JobRunner(const Plan& plan, const TaskJob& job, SharedStore& store,
                     const ExecuteOptions& options)
    : plan_(plan),
      job_(job),
      store_(store),
      options_(options),
      cache_(options.cache_dir.empty() ? fs::path() : options.cache_dir / "reference") {
  workspace_ = plan.output / "work" / job_path(job);
  outcome_.task = job.task.name;
  outcome_.task_hash = job.task.content_hash;
  outcome_.kind = kind_name(job.task.kind);
  outcome_.agent = job.agent_label;
  outcome_.repeat = job.repeat;
}

TaskOutcome JobRunner::run() {
  for (const auto& s : job_.steps) step(s);
  if (!job_.task.gates.min_speedup && outcome_.speedup > 0) outcome_.fast_enough = true;
  if (gates_.heldout_candidate && gates_.heldout_baseline) {
    outcome_.quadrant = heldout_quadrant(*gates_.heldout_baseline, *gates_.heldout_candidate);
  }
  // The held-out gate: correct on what it was shown, wrong on what it was not, is wrong.
  if (outcome_.correct && gates_.heldout_candidate == false &&
      job_.task.gates.heldout_require_correct)
    outcome_.heldout_passed = false;
  return outcome_;
}

void JobRunner::step(const PlanStep& s) {
  std::string name(step_name(s.kind));
  StepRecord rec;
  std::vector<ShapeRecord> shapes;
  bool done;
  {
    std::lock_guard lock(store_.mu);
    done = store_.store.step_done(s.key, &rec);
    if (done) shapes = store_.store.shapes(s.key);
  }
  if (done) {
    if (options_.progress) {
      options_.progress->step_finished(job_.id(), name, outcome_name(rec.outcome), rec.reason,
                                       rec.wall_seconds, true);
    }
    apply(rec, std::move(shapes));
    return;
  }
  if (options_.progress) options_.progress->step_started(job_.id(), name);
  auto t0 = std::chrono::steady_clock::now();
  StepResult r;
  profile_.clear();
  try {
    r = run_step(s.kind);
  } catch (const std::exception& e) {
    // Internal or device-level failure: an outcome with a reason, and fresh devices after it.
    r = StepResult{};
    r.outcome = StepOutcome::error;
    r.reason = e.what();
    drop_device(DeviceRole::trusted);
    drop_device(DeviceRole::candidate);
  }
  rec = StepRecord{};
  rec.key = s.key;
  rec.task = job_.task.name;
  rec.task_hash = job_.task.content_hash;
  rec.agent = job_.agent_label;
  rec.repeat = job_.repeat;
  rec.step = s.kind;
  rec.outcome = r.outcome;
  rec.reason = r.reason;
  rec.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.payload.profile = profile_.seconds();
  rec.payload = std::move(r.payload);
  {
    std::lock_guard lock(store_.mu);
    store_.store.record_step(rec, r.shapes);
  }
  if (options_.progress) {
    options_.progress->step_finished(job_.id(), name, outcome_name(rec.outcome), rec.reason,
                                     rec.wall_seconds, false);
  }
  apply(rec, std::move(r.shapes));
}

StepResult JobRunner::run_step(StepKind kind) {
  if (!unavailable_.empty() && kind != StepKind::prepare) return skipped(unavailable_);
  switch (kind) {
    case StepKind::prepare:
      return prepare();
    case StepKind::baseline_compile:
      return compile(ImplRole::baseline);
    case StepKind::candidate_compile:
      if (!gates_.prepared) return skipped("candidate was not prepared");
      return compile(ImplRole::candidate);
    case StepKind::visible_correctness:
      if (!gates_.candidate_compiled) return skipped("candidate did not compile");
      return correctness(false);
    case StepKind::visible_performance:
      if (!gates_.visible_correct) return skipped("candidate is not correct on the visible shapes");
      if (!gates_.baseline_compiled) return skipped("baseline did not compile");
      return performance(false);
    case StepKind::audit:
      if (!gates_.prepared) return skipped("candidate was not prepared");
      return audit();
    case StepKind::heldout_correctness:
      if (!gates_.candidate_compiled) return skipped("candidate did not compile");
      return correctness(true);
    case StepKind::heldout_performance:
      if (!gates_.heldout_candidate.value_or(false))
        return skipped("candidate is not correct on the held-out shapes");
      if (!gates_.heldout_baseline.value_or(false))
        return skipped("baseline is not correct on the held-out shapes");
      return performance(true);
  }
  return skipped("unknown step");
}

void JobRunner::apply(const StepRecord& rec, std::vector<ShapeRecord> shapes) {
  if (rec.outcome == StepOutcome::skip && rec.payload.unavailable) {
    unavailable_ = rec.reason;
    outcome_.skipped = rec.reason;
  }
  if ((rec.outcome == StepOutcome::fail || rec.outcome == StepOutcome::error) &&
      outcome_.failure_reason.empty()) {
    outcome_.failure_reason = std::string(step_name(rec.step)) + ": " + rec.reason;
  }
  apply_report(rec);
  for (auto& s : shapes) {
    // Exports and reports name held-out points by index only; their values stay in the db.
    if (s.set == PointSet::heldout) {
      auto it = std::find_if(job_.heldout.begin(), job_.heldout.end(),
                             [&](const model::ShapePoint& hp) { return hp == s.point; });
      s.point = {{"heldout", it == job_.heldout.end() ? -1 : it - job_.heldout.begin()}};
      // Counts and indices would reveal the held-out sizes.
      s.mismatches = 0;
      s.first_bad_index = -1;
    }
    outcome_.shapes.push_back(std::move(s));
  }
}

// The gate ledger and the outcome from one step's typed report.
void JobRunner::apply_report(const StepRecord& rec) {
  bool ok = rec.outcome == StepOutcome::ok;
  const auto& report = rec.payload.report;
  switch (rec.step) {
    case StepKind::prepare:
      gates_.prepared = ok;
      if (const auto* p = std::get_if<PrepareReport>(&report); p && p->agent)
        apply_agent_record(*p->agent, outcome_);
      break;
    case StepKind::baseline_compile:
      gates_.baseline_compiled = ok;
      break;
    case StepKind::candidate_compile:
      gates_.candidate_compiled = ok;
      outcome_.compiled = ok;
      break;
    case StepKind::visible_correctness:
      gates_.visible_correct = ok;
      outcome_.correct = ok;
      break;
    case StepKind::visible_performance:
      outcome_.fast_enough = ok;
      if (const auto* p = std::get_if<PerformanceReport>(&report)) {
        outcome_.inconclusive = p->verdict == GateVerdict::inconclusive;
        if (outcome_.inconclusive) outcome_.fast_enough = false;
        outcome_.speedup_noisy = p->speedup && !p->reliable;
        if (p->speedup) {
          outcome_.speedup = p->speedup->estimate;
          outcome_.speedup_lo = p->speedup->lo;
          outcome_.speedup_hi = p->speedup->hi;
        }
        // Outputs of timed launches that fail the re-check make the candidate incorrect.
        if (p->recheck_failed) outcome_.correct = false;
      }
      break;
    case StepKind::audit:
      if (const auto* a = std::get_if<AuditReport>(&report)) outcome_.audit_findings = a->findings;
      outcome_.audit_passed = rec.outcome != StepOutcome::fail;
      break;
    case StepKind::heldout_correctness:
      if (const auto* c = std::get_if<CorrectnessReport>(&report)) {
        gates_.heldout_candidate = c->candidate_correct;
        gates_.heldout_baseline = c->baseline_correct;
      }
      outcome_.heldout_correct = gates_.heldout_candidate;
      outcome_.baseline_heldout_correct = gates_.heldout_baseline;
      break;
    case StepKind::heldout_performance:
      if (const auto* p = std::get_if<PerformanceReport>(&report); p && p->speedup)
        outcome_.heldout_speedup = p->speedup->estimate;
      break;
  }
}

Device& JobRunner::device(DeviceRole role, model::Flavor flavor) {
  const DeviceKey key{role,
                      flavor == model::Flavor::hip ? DeviceFlavor::native : DeviceFlavor::python};
  std::unique_ptr<Device>& slot = devices_[key];
  if (!slot) {
    auto span = profile_.span("devices");
    slot = options_.make_device(key);
    if (!slot) throw std::runtime_error("no device for role " + device_key_name(key));
  }
  return *slot;
}

void JobRunner::drop_device(DeviceRole role) {
  for (DeviceFlavor flavor : {DeviceFlavor::native, DeviceFlavor::python})
    devices_.erase({role, flavor});
  for (ImplRole r : {ImplRole::reference, ImplRole::baseline, ImplRole::candidate})
    if (device_role(r) == role) impl_slot(r).reset();
  if (role == DeviceRole::candidate) {
    baseline_cross_.reset();
    cross_tried_ = false;
  }
}

std::string JobRunner::point_label(const std::vector<model::ShapePoint>& points, size_t i,
                                   bool heldout) const {
  if (heldout)
    return "held-out point " + std::to_string(i + 1) + " of " + std::to_string(points.size());
  return "[" + format_point(points[i]) + "]";
}

}  // namespace kta::engine
