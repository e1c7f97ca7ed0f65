// The checks that run the executor: the task's baseline agent on the visible points (timing) and
// the replay agent on a solution (solutions), each in a run folder of its own under the scratch.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/execute/bindings.h"
#include "engine/plan/agent_use.h"
#include "engine/plan/compile.h"
#include "engine/results/store.h"
#include "engine/validate/checks.h"
#include "lang/eval.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// A visible point's baseline must last this many ticks of a cold-timed device's timer.
constexpr double kFloorTicks = 10;

struct Run {
  TaskOutcome outcome;
  model::Timing timing;  // what the run measured with (--quick shortens the task's own)
  std::vector<StepRecord> steps;
  std::unique_ptr<ResultStore> store;
  const StepRecord* step(StepKind kind) const {
    for (const auto& s : steps)
      if (s.step == kind) return &s;
    return nullptr;
  }
};

// One job of `source` (one task, one agent) through the executor, in `dir`.
// `seeds`: per point (0: the options', else the task's).
Run run_plan(model::Plan source, const ValidateOptions& options, const fs::path& dir,
             int seeds = 0) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  source.output = dir;
  PlanOptions po;
  po.device = options.device;
  po.warp_size = options.warp_size;
  po.quick = options.quick;
  if (seeds > 0) {
    po.seeds = seeds;
  } else if (options.seeds > 0) {
    po.seeds = options.seeds;
  }
  po.secret = validation_secret(1);
  Plan plan = compile_plan(source, po);
  Run run;
  if (!plan.jobs.empty()) run.timing = plan.jobs.front().task.timing;
  run.store = ResultStore::open(dir);
  ExecuteOptions eo;
  eo.jobs = 1;
  eo.make_device = options.make_device;
  eo.cache_dir = options.cache_dir;
  eo.agents = options.agents;
  auto outcomes = execute(plan, *run.store, eo);
  if (outcomes.empty()) throw std::runtime_error("the run has no job");
  run.outcome = outcomes.front();
  run.steps = run.store->steps();
  return run;
}

std::string interval(double est, double lo, double hi) {
  return fmt::format("{:.3f}x [{:.3f}, {:.3f}]", est, lo, hi);
}

std::string seconds_text(double s) {
  if (s < 1e-3) return fmt::format("{:.3g} us", s * 1e6);
  if (s < 1) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} s", s);
}

CheckOutcome floor_check(const model::Task& task, const std::vector<ShapeRecord>& shapes,
                         const std::optional<DeviceInfo>& device) {
  if (task.timing.mode == model::Timing::Mode::batch)
    return outcome("timing.floor", CheckLevel::pass,
                   "batch timing: each sample is a batch of launches lasting about a millisecond");
  double tick = device ? device->timer_resolution : 0;
  if (!(tick > 0))
    return outcome("timing.floor", CheckLevel::pass,
                   "the device's timer has no coarse tick" +
                       (device ? " (" + device->name + ")" : std::string()));
  CheckOutcome c = outcome("timing.floor", CheckLevel::pass, "");
  double least = INFINITY;
  std::string where;
  for (const auto& s : shapes) {
    if (!s.baseline || s.set != PointSet::visible) continue;
    double t = s.baseline->median;
    if (t < least) {
      least = t;
      where = format_point(s.point);
    }
    if (t < kFloorTicks * tick)
      c.details.push_back(fmt::format(
          "the baseline takes {} at [{}], {:.1f} ticks of the device's {} timer: a sample is "
          "mostly quantization (use `timing {{ mode batch }}`, or larger visible shapes)",
          seconds_text(t), format_point(s.point), t / tick, seconds_text(tick)));
  }
  if (where.empty()) return outcome("timing.floor", CheckLevel::skip, "no point was timed");
  if (!c.details.empty()) {
    c.level = CheckLevel::fail;
    c.reason = c.details.front();
    c.details.erase(c.details.begin());
    return c;
  }
  c.reason = fmt::format("the shortest baseline time, {} at [{}], is {:.0f} ticks of the {} timer",
                         seconds_text(least), where, least / tick, seconds_text(tick));
  return c;
}

CheckOutcome physics_check(const model::Task& task, const std::vector<ShapeRecord>& shapes,
                           const std::optional<DeviceInfo>& device,
                           const std::optional<std::string>& bytes_problem,
                           const StepRecord& perf) {
  if (bytes_problem) return outcome("timing.physics", CheckLevel::fail, *bytes_problem);
  if (!task.bytes && !task.flops)
    return outcome("timing.physics", CheckLevel::skip,
                   "the task declares neither `bytes` nor `flops`: no physics floor applies");
  if (perf.reason.find("physics floor") != std::string::npos ||
      perf.reason.find("compute floor") != std::string::npos)
    return outcome(
        "timing.physics", CheckLevel::fail,
        "the baseline breaks the floor: " + perf.reason + " (is `bytes` or `flops` too large?)");
  if (!device) return outcome("timing.physics", CheckLevel::skip, "the baseline did not run");
  double margin = device->physics_margin;
  double ceiling = std::max(device->peak_bandwidth, device->cache_bandwidth);
  double best_bytes = 0, best_flops = 0;
  for (const auto& s : shapes) {
    if (!s.baseline || s.set != PointSet::visible || !(s.baseline->median > 0)) continue;
    double t = s.baseline->median;
    try {
      if (task.bytes) {
        double rate = lang::eval_number(task.bytes, s.point, task) / t;
        if (ceiling > 0 && rate > margin * ceiling)
          return outcome(
              "timing.physics", CheckLevel::fail,
              fmt::format("the baseline moves {:.4g} GB/s at [{}] by the `bytes` annotation, "
                          "above {:.2f}x the device's {:.4g} GB/s: `bytes` is too large",
                          rate * 1e-9, format_point(s.point), margin, ceiling * 1e-9));
        if (ceiling > 0) best_bytes = std::max(best_bytes, rate / ceiling);
      }
      if (task.flops) {
        double rate = lang::eval_number(task.flops, s.point, task) / t;
        if (device->peak_flops > 0 && rate > margin * device->peak_flops)
          return outcome(
              "timing.physics", CheckLevel::fail,
              fmt::format("the baseline computes {:.4g} GFLOP/s at [{}] by the `flops` "
                          "annotation, above {:.2f}x the device's peak {:.4g} GFLOP/s: `flops` is "
                          "too large",
                          rate * 1e-9, format_point(s.point), margin, device->peak_flops * 1e-9));
        if (device->peak_flops > 0) best_flops = std::max(best_flops, rate / device->peak_flops);
      }
    } catch (const std::exception& e) {
      return outcome("timing.physics", CheckLevel::fail,
                     fmt::format("`bytes` or `flops` cannot be evaluated at [{}]: {}",
                                 format_point(s.point), e.what()));
    }
  }
  std::string parts;
  if (task.bytes)
    parts = ceiling > 0 ? fmt::format("{:.2g}% of the device's bandwidth", best_bytes * 100)
                        : "no bandwidth measured on this device";
  if (task.flops)
    parts += (parts.empty() ? "" : ", ") +
             (device->peak_flops > 0 ? fmt::format("{:.2g}% of its compute peak", best_flops * 100)
                                     : std::string("no compute peak known for this device"));
  return outcome("timing.physics", CheckLevel::pass,
                 "`bytes` is within the task's tensors; the baseline reaches at most " + parts);
}

CheckOutcome shapes_check(const Run& run) {
  const StepRecord* corr = run.step(StepKind::visible_correctness);
  const StepRecord* perf = run.step(StepKind::visible_performance);
  if (!corr || !perf) return outcome("timing.shapes", CheckLevel::skip, "nothing was timed");
  std::set<std::string> checked, timed;
  for (const auto& s : run.store->shapes(corr->key)) checked.insert(format_point(s.point));
  for (const auto& s : run.store->shapes(perf->key)) timed.insert(format_point(s.point));
  if (checked == timed)
    return outcome("timing.shapes", CheckLevel::pass,
                   fmt::format("the {} timed point{} are the checked points", timed.size(),
                               timed.size() == 1 ? "" : "s"));
  for (const auto& t : timed)
    if (!checked.count(t))
      return outcome("timing.shapes", CheckLevel::fail,
                     "[" + t + "] is timed but never checked for correctness");
  return outcome("timing.shapes", CheckLevel::fail,
                 "some checked points are never timed: the speedup is over other shapes");
}

constexpr const char* kNoStarter = "the candidate starts from the baseline (no starter)";

bool is_baseline_entry(const model::Task& task, const model::Entry& e) {
  const model::Entry& b = task.baseline;
  return e.file == b.file && e.symbol == b.symbol && e.flavor == b.flavor;
}

CheckOutcome starter_check(const model::Task& task, const Run& run) {
  if (is_baseline_entry(task, task.candidate))
    return outcome("starter", CheckLevel::skip, kNoStarter);
  const TaskOutcome& o = run.outcome;
  if (!o.skipped.empty()) return outcome("starter", CheckLevel::skip, o.skipped);
  std::string file = task.candidate.file.filename().string();
  if (!o.compiled || !o.correct)
    return outcome("starter", CheckLevel::fail,
                   "the starter " + file +
                       " (what the baseline agent hands in) is wrong: " + o.failure_reason);
  if (o.heldout_correct == false)
    return outcome(
        "starter", CheckLevel::fail,
        "the starter " + file +
            " is correct on the visible points but wrong on held-out ones: " + o.failure_reason);
  return outcome("starter", CheckLevel::pass,
                 "the starter " + file + " is correct on the visible and held-out points");
}

}  // namespace

// timing.self: the least bias of identical code that fails the check.
constexpr double kSelfBand = 0.05;

// `timing`: the protocol the run measured with, whose noise target bounds what identical code may
// read (under --quick 5%, not the task's own 0.5%: a busy CI machine read 1.061x with quick
// timing, within its noise, and the task's target failed it).
CheckOutcome self_check(const model::Task& task, const model::Timing& timing,
                        const PerformanceReport& pr) {
  bool candidate_is_baseline = is_baseline_entry(task, task.candidate);
  if (!pr.speedup)
    return outcome("timing.self", CheckLevel::fail, "no visible point was timed to the end");
  const SpeedupEstimate& s = *pr.speedup;
  if (candidate_is_baseline) {
    std::string read = interval(s.estimate, s.lo, s.hi);
    if (s.lo <= 1 && 1 <= s.hi)
      return outcome("timing.self", CheckLevel::pass,
                     "the baseline against itself reads " + read + ", which holds 1");
    if (!pr.reliable)
      return outcome("timing.self", CheckLevel::warn,
                     "the baseline against itself reads " + read +
                         ", which excludes 1, on a measurement that did not reach its noise "
                         "target (a busy machine?)");
    // A bias smaller than the noise allowance cannot turn a verdict (a busy machine reads a few
    // percent either way): only one beyond it is the task's defect.
    const double band = 1 + std::max(kSelfBand, 2 * timing.max_noise);
    if (std::max(s.estimate, 1 / s.estimate) <= band)
      return outcome(
          "timing.self", CheckLevel::warn,
          "the baseline against itself reads " + read +
              fmt::format(", which excludes 1 but stays within {:.3f}x either way "
                          "(twice the noise target it was measured with, at least {:.0f}%): run "
                          "it again on a quiet machine",
                          band, kSelfBand * 100));
    return outcome("timing.self", CheckLevel::fail,
                   "the baseline against itself reads " + read +
                       ": the measurement favours one side of identical code (state carried "
                       "from launch to launch, a first-launch effect, a cache the baseline "
                       "warms for itself)");
  }
  // The candidate is another entry (torch2hip's HIP starter): the run's calibration rounds time
  // the baseline against itself; its offset must stay within the run's own interval.
  if (!pr.calibration)
    return outcome("timing.self", CheckLevel::skip,
                   "the run calibrated no point (the baseline was not timed against itself)");
  double offset = pr.calibration->offset;
  double half = s.lo > 0 ? std::sqrt(s.hi / s.lo) : INFINITY;
  double bound = std::max(half, 1 + timing.max_noise);
  std::string read = fmt::format(
      "the baseline against itself reads {:.3f}x over {} point{} (the run's interval allows "
      "{:.3f}x either way)",
      offset, pr.calibration->shapes, pr.calibration->shapes == 1 ? "" : "s", bound);
  if (std::max(offset, 1 / offset) <= bound) return outcome("timing.self", CheckLevel::pass, read);
  return outcome("timing.self", pr.reliable ? CheckLevel::fail : CheckLevel::warn,
                 read + (pr.reliable ? ": the measurement favours one side of identical code"
                                     : ", on a measurement that did not reach its noise target"));
}

std::string validation_secret(int index) { return fmt::format("kta-validate-{}", index); }

std::vector<CheckOutcome> timing_checks(const model::Task& task, const ValidateOptions& options,
                                        const std::optional<DeviceInfo>& baseline_device,
                                        const std::optional<std::string>& bytes_problem) {
  auto all = [&](CheckLevel level, const std::string& reason) {
    std::vector<CheckOutcome> out;
    for (const char* name : {"timing.self", "timing.floor", "timing.physics", "timing.shapes"}) {
      if (std::string(name) == "timing.physics" && bytes_problem)
        out.push_back(outcome(name, CheckLevel::fail, *bytes_problem));
      else
        out.push_back(outcome(name, level, reason));
    }
    return out;
  };
  bool has_starter = !is_baseline_entry(task, task.candidate);
  Run run;
  try {
    model::Plan source = plan_for_task(task, {});
    // A starter of its own (torch2hip) is what the baseline agent hands in: held-out points
    // too, where a starter written for the visible sizes shows itself.
    source.heldout = has_starter;
    // One seed: the device checks judged every seed already; this run is for the clock.
    run = run_plan(source, options, options.scratch / "timing", 1);
  } catch (const std::exception& e) {
    auto out = all(CheckLevel::fail, std::string("the timing run failed: ") + e.what());
    out.push_back(outcome("starter", has_starter ? CheckLevel::fail : CheckLevel::skip,
                          has_starter ? "the run failed: " + std::string(e.what()) : kNoStarter));
    return out;
  }
  CheckOutcome starter = starter_check(task, run);
  auto with_starter = [&](std::vector<CheckOutcome> out) {
    out.push_back(starter);
    return out;
  };
  if (!run.outcome.skipped.empty()) return with_starter(all(CheckLevel::skip, run.outcome.skipped));
  const StepRecord* perf = run.step(StepKind::visible_performance);
  if (!perf) return with_starter(all(CheckLevel::skip, "the run has no performance step"));
  const auto* pr = std::get_if<PerformanceReport>(&perf->payload.report);
  if (perf->outcome == StepOutcome::skip || !pr)
    return with_starter(all(CheckLevel::skip, "nothing was timed: " + perf->reason));
  std::vector<ShapeRecord> shapes = run.store->shapes(perf->key);
  return {self_check(task, run.timing, *pr), floor_check(task, shapes, baseline_device),
          physics_check(task, shapes, baseline_device, bytes_problem, *perf), shapes_check(run),
          starter};
}

CheckOutcome solutions_check(const model::Task& task, const ValidateOptions& options) {
  if (options.solutions.empty())
    return outcome("solutions", CheckLevel::skip,
                   "no solutions given (--solutions DIR, or a plan's replay folder)");
  std::error_code ec;
  fs::path dir = options.solutions / task.name;
  if (!fs::is_directory(dir, ec))
    return outcome("solutions", CheckLevel::skip,
                   "no solution for this task (" + dir.string() + " does not exist)");
  Run run;
  try {
    model::Plan source = plan_for_task(task, {});
    source.agents = {replay_agent(fs::absolute(options.solutions).string())};
    run = run_plan(source, options, options.scratch / "solutions");
  } catch (const std::exception& e) {
    return outcome("solutions", CheckLevel::fail, std::string("the run failed: ") + e.what());
  }
  const TaskOutcome& o = run.outcome;
  if (!o.skipped.empty()) return outcome("solutions", CheckLevel::skip, o.skipped);
  if (const StepRecord* prep = run.step(StepKind::prepare)) {
    if (const auto* p = std::get_if<PrepareReport>(&prep->payload.report))
      for (const auto& f : p->files)
        if (!f.found)
          return outcome("solutions", CheckLevel::fail,
                         "the solution has no " + f.file + " (the baseline's would be judged)");
  }
  if (!o.compiled || !o.correct)
    return outcome("solutions", CheckLevel::fail, "the solution is wrong: " + o.failure_reason);
  if (o.heldout_correct == false)
    return outcome("solutions", CheckLevel::fail,
                   "the solution is correct on the visible points but wrong on held-out ones: " +
                       o.failure_reason);
  if (!(o.speedup > 0))
    return outcome("solutions", CheckLevel::pass,
                   "the solution is correct on visible and held-out points (not timed)");
  std::string read = interval(o.speedup, o.speedup_lo, o.speedup_hi);
  if (o.speedup_hi < 1)
    return outcome("solutions", CheckLevel::warn,
                   "the solution is correct but slower than the baseline: " + read);
  return outcome("solutions", CheckLevel::pass,
                 "the solution is correct on visible and held-out points; speedup " + read +
                     (o.heldout_speedup ? fmt::format(", held-out {:.3f}x", *o.heldout_speedup)
                                        : std::string()));
}

}  // namespace kta::engine
