// Step: performance on the visible (or held-out) shapes. Per point: baseline and candidate
// interleaved under the cold protocol (the device flushes caches and times) or the batch one,
// inputs rotating between two sets so memoizing by pointer or content gains nothing, candidate
// outputs poisoned before every cold sample (batch: before a verification batch after the last
// sample), and the outputs of the LAST timed launch re-checked against the reference
// (correct-then-corrupt). Per-shape speedup = median ratio; task speedup = geometric mean with a
// bootstrap interval.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <span>

#include "engine/execute/job_runner.h"
#include "engine/execute/judge.h"
#include "engine/measure/batch_size.h"
#include "engine/measure/bootstrap.h"
#include "engine/measure/protocol.h"
#include "lang/eval.h"
#include "lang/hash.h"

namespace kta::engine {

namespace {

constexpr int kInputSets = 2;
constexpr double kPhysicsMargin = 1.25;

Sample to_sample(const TimedResult& t) {
  Sample s;
  s.ok = t.status.ok;
  s.seconds = t.seconds;
  s.error = t.status.error;
  return s;
}

// The GPU clocks read after each timed sample of one role (0: not readable, never recorded).
class ClockReadings {
 public:
  void add(const TimedResult& t) {
    if (t.sm_clock_mhz > 0) sm_.push_back(t.sm_clock_mhz);
    if (t.mem_clock_mhz > 0) mem_.push_back(t.mem_clock_mhz);
  }
  bool empty() const { return sm_.empty(); }
  // Over the last `counted` readings: the protocol counts the samples after its warm-up.
  RoleClocks summary(int counted) const {
    Stats sm = summarize(last(sm_, counted));
    RoleClocks c{sm.median, sm.min, sm.max, sm.n, std::nullopt};
    if (!mem_.empty()) c.mem_median = summarize(last(mem_, counted)).median;
    return c;
  }

 private:
  static std::span<const double> last(const std::vector<double>& v, int n) {
    size_t keep = n > 0 ? std::min(v.size(), size_t(n)) : v.size();
    return std::span<const double>(v).last(keep);
  }
  std::vector<double> sm_, mem_;
};

// Median SM clocks of baseline and candidate further apart than this make a speedup suspect:
// a launch-bound kernel's time follows the SM clock.
constexpr double kClockMismatch = 0.02;

std::optional<Note> clock_note(const std::optional<ShapeClocks>& clocks, const std::string& label) {
  if (!clocks) return std::nullopt;
  double a = clocks->baseline.sm_median;
  double b = clocks->candidate.sm_median;
  double apart = std::abs(a - b) / std::max(a, b);
  if (apart <= kClockMismatch) return std::nullopt;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "median SM clock %.0f MHz (baseline) vs %.0f MHz (candidate) at %s, %.1f%% "
                "apart: the comparison is suspect",
                a, b, label.c_str(), 100 * apart);
  return Note{"clock_mismatch", buf};
}

// Within measurement noise of the target counts as meeting it.
double gate_slack(const model::Timing& t) { return std::max(0.02, 2 * t.max_noise); }

}  // namespace

// One point: inputs and reference outputs for both input sets, buffers on both devices, the
// interleaved measurement, then the re-check of the candidate's last timed launch.
PointTiming JobRunner::time_point(const Impl& base, const Impl& cand,
                                  const model::ShapePoint& point, const std::string& label,
                                  bool heldout, const InterleavedProtocol& protocol) {
  const auto& task = job_.task;
  PointTiming pt;
  pt.rec.set = heldout ? PointSet::heldout : PointSet::visible;
  pt.rec.point = point;
  bool flush = task.timing.mode == model::Timing::Mode::cold;
  bool has_inout = std::any_of(task.tensors.begin(), task.tensors.end(),
                               [](const auto& t) { return t.role == model::TensorRole::inout; });
  // Batch: back-to-back launches per sample, except where an inout would accumulate across them
  // (the re-check of the last timed launch needs one launch on fresh inputs).
  bool batch = !flush && !has_inout;
  PointSpec spec = make_point_spec(task, point);
  // The seeds the correctness step checked (memoized per job), so timing draws nothing new.
  std::array<std::shared_ptr<const HostSet>, kInputSets> in, want;
  for (int k = 0; k < kInputSets; ++k) {
    in[k] = inputs(spec, static_cast<uint64_t>(k));
    std::string error;
    want[k] = reference(spec, static_cast<uint64_t>(k), *in[k], &error);
    if (!want[k]) {
      pt.outcome = StepOutcome::error;
      pt.reason = error + " at " + label;
      return pt;
    }
  }
  std::array<std::unique_ptr<DeviceSet>, kInputSets> bs, cs;
  std::optional<StepProfile::Span> upload_span;
  upload_span.emplace(profile_, "upload");
  for (int k = 0; k < kInputSets; ++k) {
    bs[k] = std::make_unique<DeviceSet>(*base.device, task, spec);
    cs[k] = std::make_unique<DeviceSet>(*cand.device, task, spec);
    bs[k]->upload_inputs(*in[k]);
    cs[k]->upload_inputs(*in[k]);
  }
  upload_span.reset();
  // Each side gets as many launches per sample as make it last about a millisecond.
  int repeat_a = 1, repeat_b = 1;
  if (batch) {
    auto span = profile_.span("batch sizing");
    repeat_a = batch_repeat([&](int n) { return to_sample(bs[0]->timed(base, false, n)); });
    repeat_b = batch_repeat([&](int n) { return to_sample(cs[0]->timed(cand, false, n)); });
  }
  int na = 0, nb = 0, last = 0;
  ClockReadings clocks_a, clocks_b;
  auto sample_a = [&] {
    int k = na++ % kInputSets;
    if (has_inout) bs[k]->upload_inputs(*in[k]);
    TimedResult t = bs[k]->timed(base, flush, repeat_a);
    clocks_a.add(t);
    return to_sample(t);
  };
  auto sample_b = [&] {
    int k = nb++ % kInputSets;
    if (has_inout) cs[k]->upload_inputs(*in[k]);
    // Cold: poisoned before every sample, so a launch that skips work when its outputs already
    // look computed is timed skipping and caught. Batch: nothing runs between samples but the
    // timed work (a poison before each sample moved a 1 us kernel's median by 0.2% and doubled
    // its run-to-run spread on the H200); a poisoned verification batch follows instead. Inside a
    // batch a skip would hide either way: one poison per batch is all a kernel can see.
    if (!batch) cs[k]->poison_outputs(launches_++);
    last = k;
    TimedResult t = cs[k]->timed(cand, flush, repeat_b);
    clocks_b.add(t);
    return to_sample(t);
  };
  InterleavedProtocol::Outcome m;
  {
    auto span = profile_.span("sampling");
    m = protocol.run(sample_a, sample_b);
  }
  if (!clocks_a.empty() && !clocks_b.empty())
    pt.clocks = ShapeClocks{clocks_a.summary(m.a.n), clocks_b.summary(m.b.n)};
  if (m.failed) {
    pt.outcome = StepOutcome::fail;
    pt.reason = "timed launch failed at " + label + ": " +
                (heldout ? mask_numbers(m.stop_reason) : m.stop_reason);
    return pt;
  }
  if (batch) {
    // The verification batch: poisoned outputs, the same graph, its time not counted.
    cs[last]->poison_outputs(launches_++);
    TimedResult v = cs[last]->timed(cand, false, repeat_b);
    if (!v.status.ok) {
      pt.outcome = StepOutcome::fail;
      pt.reason = "timed launch failed at " + label + ": candidate verification batch failed: " +
                  (heldout ? mask_numbers(v.status.error) : v.status.error);
      return pt;
    }
  }
  // Correct-then-corrupt: the outputs of the last timed launch must still be right.
  CheckResult c;
  {
    auto span = profile_.span("re-check");
    c = judge(task, *in[last], cs[last]->download_inputs(), cs[last]->download_outputs(),
              *want[last], pt.rec);
  }
  pt.rec.correct = c.correct;
  pt.rec.baseline = m.a;
  pt.rec.candidate = m.b;
  pt.rec.speedup = m.speedup;
  if (task.bytes && m.b.median > 0) {
    pt.rec.throughput = lang::eval_number(task.bytes, point, task) / m.b.median;
  }
  if (task.flops && m.b.median > 0) {
    pt.rec.flop_rate = lang::eval_number(task.flops, point, task) / m.b.median;
  }
  // Physics floor: under the cold protocol every compulsory byte comes from DRAM, so a rate far
  // above the device's measured copy peak means the kernel skipped work (or the timer was
  // fooled). The margin covers read-heavy kernels that beat a copy's mixed traffic; batch
  // samples are exempt, since their data may legitimately stay in the L2.
  double peak = cand.device->info().peak_bandwidth;
  if (pt.rec.throughput && peak > 0 && flush && *pt.rec.throughput > kPhysicsMargin * peak) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "physics floor: %.2f TB/s is above %.2fx the device's measured copy peak "
                  "(%.2f TB/s)",
                  *pt.rec.throughput * 1e-12, kPhysicsMargin, peak * 1e-12);
    pt.rec.reason = buf;
    pt.outcome = StepOutcome::fail;
    pt.reason = pt.rec.reason + " at " + label;
    return pt;
  }
  if (!c.correct) {
    pt.recheck_failed = true;
    pt.rec.reason =
        "outputs of the last timed launch are wrong: " + (heldout ? c.blind_reason : c.reason);
    pt.outcome = StepOutcome::fail;
    pt.reason = pt.rec.reason + " at " + label;
  }
  return pt;
}

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
  DeviceInfo info = cand->device->info();
  InterleavedProtocol protocol(task.timing, TimerResolution{info.kind == "hip" ? 1e-6 : 0.0});
  std::vector<double> ratios;
  PerformanceReport report;
  std::vector<std::optional<ShapeClocks>> clocks;
  for (size_t i = 0; i < points.size(); ++i) {
    std::string label = point_label(points, i, heldout);
    PointTiming pt = time_point(*base, *cand, points[i], label, heldout, protocol);
    report.recheck_failed = report.recheck_failed || pt.recheck_failed;
    if (pt.rec.speedup) {
      ratios.push_back(*pt.rec.speedup);
      r.shapes.push_back(pt.rec);
      clocks.push_back(pt.clocks);
      if (auto note = clock_note(pt.clocks, label)) report.notes.push_back(*note);
    }
    if (pt.outcome != StepOutcome::ok) {
      r.outcome = pt.outcome;
      r.reason = pt.reason;
      if (!pt.rec.speedup) {  // the launch failed: the workers are gone
        drop_device(kCandidate);
        drop_device(kTrusted);
      }
      break;
    }
  }
  // Clocks only where some shape read them: absent, never zeros, on devices that cannot.
  if (std::any_of(clocks.begin(), clocks.end(), [](const auto& c) { return c.has_value(); }))
    report.clocks = std::move(clocks);
  // Achieved bandwidth as a share of the device's measured copy peak, per timed shape.
  if (info.peak_bandwidth > 0 && task.bytes) {
    report.peak_bandwidth = info.peak_bandwidth;
    for (const auto& rec : r.shapes)
      report.percent_of_peak.push_back(
          rec.throughput ? 100.0 * *rec.throughput / info.peak_bandwidth : 0.0);
  }
  if (!ratios.empty() && r.outcome == StepOutcome::ok) speedup_verdict(ratios, heldout, r, report);
  r.payload.report = std::move(report);
  return r;
}

// Task speedup (geomean with a bootstrap interval) and the performance gate.
void JobRunner::speedup_verdict(const std::vector<double>& ratios, bool heldout, StepResult& r,
                                PerformanceReport& report) const {
  const auto& task = job_.task;
  std::string h = lang::ContentHasher().field("ci", job_.id()).hex();
  Interval ci = geomean_ci(ratios, std::stoull(h.substr(0, 16), nullptr, 16));
  report.speedup = SpeedupEstimate{ci.estimate, ci.lo, ci.hi};
  report.shapes = static_cast<int>(ratios.size());
  if (!task.gates.min_speedup || heldout) return;
  double need = *task.gates.min_speedup;
  report.min_speedup = need;
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

}  // namespace kta::engine
