// Step: performance on the visible (or held-out) shapes. Each point is measured by its protocol
// (engine/execute/point_protocol.h: cold or batch, fresh inputs for every launch, poisoned
// outputs, a random timed launch verified, the physics floor). The task's speedup is the
// geometric mean of the per-shape speedups, its interval combining theirs (engine/measure/
// speedup.h); the performance gate compares that interval with min_speedup and nothing else.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "engine/execute/job_runner.h"
#include "engine/execute/point_protocol.h"
#include "engine/measure/speedup.h"

namespace kta::engine {

namespace {

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

}  // namespace

PointJob JobRunner::point_job(const Impl& base, const Impl& cand, const Impl* cross,
                              const model::ShapePoint& point, const std::string& label,
                              bool heldout, const InterleavedProtocol& protocol) {
  PointJob pj;
  pj.task = &job_.task;
  pj.base = &base;
  pj.cand = &cand;
  pj.spec = make_point_spec(job_.task, point);
  pj.label = label;
  pj.heldout = heldout;
  pj.calibrate = true;
  pj.cross = cross;
  pj.protocol = &protocol;
  pj.profile = &profile_;
  pj.launches = &launches_;
  PointSpec spec = pj.spec;
  pj.reference = [this, spec](const HostSet& inputs, std::string* error) {
    return run_reference(spec, inputs, error);
  };
  return pj;
}

StepResult JobRunner::performance(bool heldout) {
  StepResult r;
  const auto& points = heldout ? job_.heldout : job_.visible;
  const auto& task = job_.task;
  std::string error;
  const Impl* base = impl(ImplRole::baseline, &error);
  const Impl* cand = base ? impl(ImplRole::candidate, &error) : nullptr;
  if (!base || !cand) {
    r.outcome = StepOutcome::error;
    r.reason = error;
    return r;
  }
  DeviceInfo info = cand->device->info();
  InterleavedProtocol protocol(task.timing, TimerResolution{info.timer_resolution});
  PerformanceReport report;
  report.clock = device_timer_name(info.timer);
  std::vector<SpeedupInterval> shapes;
  std::vector<SpeedupInterval> calibrations;
  std::vector<std::optional<ShapeClocks>> clocks;
  // Every timed point measures the baseline against itself too (rounds A B C): how far apart
  // the two sides run is measured where it matters, not assumed from another point.
  const Impl* cross = baseline_on_candidate_device();
  // Compiling ahead (Triton's warm-up workers) ends before anything is timed: those processes
  // would compete with the samples.
  for (const Impl* im : {base, cand, cross})
    if (im != nullptr) im->device->synchronize();
  for (size_t i = 0; i < points.size(); ++i) {
    std::string label = point_label(points, i, heldout);
    PointTiming pt;
    {
      // The measurement's buffers live on the job's devices: they go before a failure below
      // drops those devices.
      auto measurement =
          make_point_protocol(point_job(*base, *cand, cross, points[i], label, heldout, protocol));
      pt = measurement->run();
    }
    report.recheck_failed = report.recheck_failed || pt.recheck_failed;
    if (pt.rec.speedup && pt.timing) {
      shapes.push_back(pt.speedup);
      if (pt.calibration) calibrations.push_back(*pt.calibration);
      report.timing.push_back(*pt.timing);
      r.shapes.push_back(pt.rec);
      clocks.push_back(pt.clocks);
      if (auto note = clock_note(pt.clocks, label)) report.notes.push_back(*note);
      report.notes.insert(report.notes.end(), pt.notes.begin(), pt.notes.end());
    }
    if (pt.outcome != StepOutcome::ok) {
      r.outcome = pt.outcome;
      r.reason = pt.reason;
      if (!pt.rec.speedup) {  // the launch failed: the workers are gone
        drop_device(DeviceRole::candidate);
        drop_device(DeviceRole::trusted);
      }
      break;
    }
  }
  if (!task.bytes && !task.flops)
    report.notes.push_back({"physics_floor_skipped",
                            "the task declares neither bytes nor flops: no physics floor applies"});
  // Clocks only where some shape read them: absent, never zeros, on devices that cannot.
  if (std::any_of(clocks.begin(), clocks.end(), [](const auto& c) { return c.has_value(); }))
    report.clocks = std::move(clocks);
  // Achieved bandwidth as a share of the device's measured peak, per timed shape.
  if (info.peak_bandwidth > 0 && task.bytes) {
    report.peak_bandwidth = info.peak_bandwidth;
    for (const auto& rec : r.shapes)
      report.percent_of_peak.push_back(
          rec.throughput ? 100.0 * *rec.throughput / info.peak_bandwidth : 0.0);
  }
  if (!shapes.empty() && r.outcome == StepOutcome::ok)
    speedup_verdict(shapes, calibrations, cross, heldout, r, report);
  r.payload.report = std::move(report);
  return r;
}

// The task's speedup (geometric mean over shapes, the interval combining theirs, widened by the
// offset the combined calibration allows: the far end of its interval) and the gate: an interval
// wholly below min_speedup fails; a reliable one (known to within reliable_width) passes otherwise;
// an unreliable one passes only wholly above the target, and straddling it is inconclusive, neither
// pass nor fail.
void JobRunner::speedup_verdict(const std::vector<SpeedupInterval>& shapes,
                                const std::vector<SpeedupInterval>& calibrations, bool cross,
                                bool heldout, StepResult& r, PerformanceReport& report) const {
  const auto& task = job_.task;
  SpeedupInterval s = combined_speedup(shapes);
  // The offset is the two sides' own difference, common to the task's estimate: it adds to the
  // statistical half-width (its sign is not trusted to correct the estimate: the candidate's
  // device runs C beside the candidate's code).
  double offset = 0;
  if (!calibrations.empty()) {
    SpeedupInterval same = combined_speedup(calibrations);
    offset = offset_bound(same);
    report.calibration =
        TaskCalibration{same.estimate, static_cast<int>(calibrations.size()), cross};
  }
  SpeedupInterval widened = s;
  widened.lo = s.lo * std::exp(-offset);
  widened.hi = s.hi * std::exp(offset);
  report.speedup = SpeedupEstimate{s.estimate, widened.lo, widened.hi};
  report.shapes = static_cast<int>(shapes.size());
  auto [lo, hi] =
      std::minmax_element(shapes.begin(), shapes.end(),
                          [](const auto& a, const auto& b) { return a.estimate < b.estimate; });
  report.shape_min = lo->estimate;
  report.shape_max = hi->estimate;
  std::string first_unreliable;
  for (const auto& t : report.timing) {
    if (t.reliable) continue;
    ++report.unreliable;
    if (first_unreliable.empty()) first_unreliable = t.unreliable;
  }
  double width = widened.relative_half_width();
  report.reliable = widened.has_interval() && width <= reliable_width(task.timing);
  if (!task.gates.min_speedup || heldout) return;
  double need = *task.gates.min_speedup;
  report.min_speedup = need;
  char buf[400];
  if (widened.has_interval() && widened.hi < need) {
    report.verdict = GateVerdict::fail;
    r.outcome = StepOutcome::fail;
    std::snprintf(buf, sizeof buf, "slower than required: speedup %.3fx [%.3f, %.3f] < %.2fx",
                  s.estimate, widened.lo, widened.hi, need);
    r.reason = buf;
    return;
  }
  if (!report.reliable && !(widened.has_interval() && widened.lo >= need)) {
    report.verdict = GateVerdict::inconclusive;
    std::string why =
        !widened.has_interval() ? std::string("one round: no interval")
        : !first_unreliable.empty()
            ? first_unreliable
            : "interval +-" + std::to_string(int(std::lround(100 * width))) + "% over its shapes";
    std::snprintf(buf, sizeof buf,
                  "inconclusive: speedup %.3fx [%.3f, %.3f] against %.2fx is not known to within "
                  "%.1f%% (%s)",
                  s.estimate, widened.lo, widened.hi, need, 100 * reliable_width(task.timing),
                  why.c_str());
    r.reason = buf;
    return;
  }
  report.verdict = GateVerdict::pass;
}

}  // namespace kta::engine
