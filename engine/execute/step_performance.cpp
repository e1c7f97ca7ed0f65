// Step: performance on the visible (or held-out) shapes. Per point: baseline and candidate
// interleaved under the cold protocol (the device flushes caches and times), inputs rotating
// between two sets so memoizing by pointer or content gains nothing, candidate outputs poisoned
// before every timed launch, and the outputs of the LAST timed launch re-checked against the
// reference (correct-then-corrupt). Per-shape speedup = median ratio; task speedup = geometric
// mean with a bootstrap interval.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "engine/execute/job_runner.h"
#include "engine/execute/judge.h"
#include "engine/measure/bootstrap.h"
#include "engine/measure/protocol.h"
#include "engine/plan/hash.h"
#include "lang/eval.h"

namespace kta::engine {

namespace {

constexpr int kInputSets = 2;

Sample to_sample(const TimedResult& t) {
  Sample s;
  s.ok = t.status.ok;
  s.seconds = t.seconds;
  s.error = t.status.error;
  return s;
}

// Within measurement noise of the target counts as meeting it.
double gate_slack(const model::Timing& t) { return std::max(0.02, 2 * t.max_noise); }

}  // namespace

StepResult JobRunner::performance(bool heldout) {
  StepResult r;
  const auto& points = heldout ? job_.heldout : job_.visible;
  const auto& task = job_.task;
  std::string error;
  const Impl* base = impl("baseline", &error);
  const Impl* cand = base ? impl("candidate", &error) : nullptr;
  if (!base || !cand) {
    r.outcome = StepOutcome::error;
    r.reason = error;
    return r;
  }
  DeviceInfo info = device(kCandidate).info();
  TimerResolution resolution{info.kind == "hip" ? 1e-6 : 0.0};
  InterleavedProtocol protocol(task.timing, resolution);
  bool flush = task.timing.mode == model::Timing::Mode::cold;
  bool has_inout = std::any_of(task.tensors.begin(), task.tensors.end(), [](const auto& t) {
    return t.role == model::TensorRole::inout;
  });
  std::vector<double> ratios;
  bool recheck_failed = false;
  for (size_t i = 0; i < points.size() && r.outcome == StepOutcome::ok; ++i) {
    std::string label = point_label(points, i, heldout);
    PointSpec spec = make_point_spec(task, points[i]);
    std::array<HostSet, kInputSets> in, want;
    for (int k = 0; k < kInputSets; ++k) {
      in[k] = make_inputs(task, spec, static_cast<uint64_t>(k));
      auto ref = reference(spec, static_cast<uint64_t>(k), in[k], &error);
      if (!ref) {
        r.outcome = StepOutcome::error;
        r.reason = error + " at " + label;
        return r;
      }
      want[k] = std::move(*ref);
    }
    std::array<std::unique_ptr<DeviceSet>, kInputSets> bs, cs;
    for (int k = 0; k < kInputSets; ++k) {
      bs[k] = std::make_unique<DeviceSet>(*base->device, task, spec);
      cs[k] = std::make_unique<DeviceSet>(*cand->device, task, spec);
      bs[k]->upload_inputs(in[k]);
      cs[k]->upload_inputs(in[k]);
    }
    int na = 0, nb = 0, last = 0;
    auto sample_a = [&] {
      int k = na++ % kInputSets;
      if (has_inout) bs[k]->upload_inputs(in[k]);
      return to_sample(bs[k]->timed(*base, flush));
    };
    auto sample_b = [&] {
      int k = nb++ % kInputSets;
      if (has_inout) cs[k]->upload_inputs(in[k]);
      cs[k]->poison_outputs(launches_++);
      last = k;
      return to_sample(cs[k]->timed(*cand, flush));
    };
    InterleavedProtocol::Outcome m = protocol.run(sample_a, sample_b);
    ShapeRecord rec;
    rec.set = heldout ? "heldout" : "visible";
    rec.point = points[i];
    if (m.failed) {
      r.outcome = StepOutcome::fail;
      r.reason = "timed launch failed at " + label + ": " +
                 (heldout ? mask_numbers(m.stop_reason) : m.stop_reason);
      bs = {};
      cs = {};
      drop_device(kCandidate);
      drop_device(kTrusted);
      break;
    }
    // Correct-then-corrupt: the outputs of the last timed launch must still be right.
    CheckResult c = judge(task, in[last], cs[last]->download_inputs(), cs[last]->download_outputs(),
                          want[last], rec);
    rec.correct = c.correct;
    rec.baseline = m.a;
    rec.candidate = m.b;
    rec.speedup = m.speedup;
    if (task.bytes && m.b.median > 0) {
      rec.throughput = lang::eval_number(task.bytes, points[i], task) / m.b.median;
    }
    if (task.flops && m.b.median > 0) {
      rec.flop_rate = lang::eval_number(task.flops, points[i], task) / m.b.median;
    }
    if (!c.correct) {
      recheck_failed = true;
      rec.reason = "outputs of the last timed launch are wrong: " + (heldout ? c.blind_reason : c.reason);
      r.outcome = StepOutcome::fail;
      r.reason = rec.reason + " at " + label;
    }
    ratios.push_back(m.speedup);
    r.shapes.push_back(std::move(rec));
  }
  r.payload["recheck_failed"] = recheck_failed;
  if (ratios.empty() || r.outcome != StepOutcome::ok) return r;
  std::string h = ContentHasher().field("ci", job_.id()).hex();
  Interval ci = geomean_ci(ratios, std::stoull(h.substr(0, 16), nullptr, 16));
  r.payload["speedup"] = ci.estimate;
  r.payload["speedup_lo"] = ci.lo;
  r.payload["speedup_hi"] = ci.hi;
  r.payload["shapes"] = ratios.size();
  if (task.gates.min_speedup && !heldout) {
    double need = *task.gates.min_speedup;
    r.payload["min_speedup"] = need;
    // Fails only when the whole interval lies below the target (less the measurement slack):
    // a candidate indistinguishable from the target under the run's noise is not failed.
    if (ci.hi < need * (1 - gate_slack(task.timing))) {
      r.outcome = StepOutcome::fail;
      char buf[160];
      std::snprintf(buf, sizeof buf, "slower than required: speedup %.3fx [%.3f, %.3f] < %.2fx",
                    ci.estimate, ci.lo, ci.hi, need);
      r.reason = buf;
    }
  }
  return r;
}

}  // namespace kta::engine
