#include "engine/execute/point_protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "engine/execute/judge.h"
#include "engine/measure/batch_size.h"
#include "lang/eval.h"

namespace kta::engine {

namespace {

constexpr int kMaxBatchLaunches = 256;
// Fresh inputs cost host time every round: a batch holds at most this many bytes of them.
constexpr size_t kFreshBytesPerRound = size_t(64) << 20;
// A launch that spends less than this share of its wall time on the process's CPUs, and less
// than this share of the baseline's, ran somewhere the CPU-time clock does not see.
constexpr double kOffCpu = 0.5;
// Without a measured cache ceiling, data resident in a GPU's L2 moves at most this many times its
// DRAM copy rate.
constexpr double kCacheOverDram = 4;
// A speedup known to within +-5% prints plainly even when sampling stopped on its budget before
// the samples' noise target (0.5% under the default timing is a GPU's figure; a busy cpu device
// rarely gets there): wider, and it is unreliable.
constexpr double kPlainWidth = 0.05;

Sample to_sample(const TimedResult& t) {
  Sample s;
  s.ok = t.status.ok;
  s.seconds = t.seconds;
  s.error = t.status.error;
  s.wall_seconds = t.wall_seconds;
  return s;
}

std::span<const double> last(const std::vector<double>& v, int n) {
  size_t keep = n > 0 ? std::min(v.size(), size_t(n)) : v.size();
  return std::span<const double>(v).last(keep);
}

std::string format(const char* fmt, double a, double b, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

// Bytes per second as the physics floor names them: TB/s on a GPU's scale, GB/s below.
std::string rate_text(double bytes_per_second) {
  if (bytes_per_second >= 0.1e12) return format("%.2f TB/s", bytes_per_second * 1e-12, 0);
  return format("%.2f GB/s", bytes_per_second * 1e-9, 0);
}

}  // namespace

void ClockSeries::add(const TimedResult& t) {
  if (t.sm_clock_mhz > 0) sm_.push_back(t.sm_clock_mhz);
  if (t.mem_clock_mhz > 0) mem_.push_back(t.mem_clock_mhz);
}

RoleClocks ClockSeries::summary(int counted) const {
  Stats sm = summarize(last(sm_, counted));
  RoleClocks c{sm.median, sm.min, sm.max, sm.n, std::nullopt};
  if (!mem_.empty()) c.mem_median = summarize(last(mem_, counted)).median;
  return c;
}

PointProtocol::PointProtocol(PointJob job)
    : job_(std::move(job)), rng_(std::random_device{}()), fresh_(*job_.task, job_.spec, rng_) {
  a_.impl = job_.base;
  b_.impl = job_.cand;
  c_.impl = job_.cross;
}

PointProtocol::~PointProtocol() = default;

bool PointProtocol::fail(PointTiming& pt, StepOutcome outcome, const std::string& why) {
  pt.outcome = outcome;
  pt.reason = why + " at " + job_.label;
  return false;
}

std::string PointProtocol::masked(const std::string& text) const {
  return job_.heldout ? mask_numbers(text) : text;
}

// The protocol, step by step (the header describes each).
PointTiming PointProtocol::run() {
  PointTiming pt;
  pt.rec.set = job_.heldout ? PointSet::heldout : PointSet::visible;
  pt.rec.point = job_.spec.point;
  if (!prepare(1, 1, pt)) return pt;
  int batch_a = 1, batch_b = 1;
  try {
    begin_round(false);
    std::tie(batch_a, batch_b) = size_batch();
  } catch (const std::exception& e) {
    fail(pt, StepOutcome::error, std::string("cannot size the batch: ") + e.what());
    return pt;
  }
  if (!prepare(batch_a, batch_b, pt)) return pt;
  auto guarded = [this](const std::function<Sample()>& f) {
    return [this, f] {
      try {
        return f();
      } catch (const std::exception& e) {
        return Sample{false, 0, e.what()};
      }
    };
  };
  std::function<Sample()> sample_a = guarded([this] { return sample(a_); });
  std::function<Sample()> sample_b = guarded([this] {
    Sample s = sample(b_);
    if (s.ok && counting_) keep_for_verification();
    return s;
  });
  std::function<Sample()> sample_again = guarded([this] { return sample(calibration()); });
  InterleavedProtocol::Outcome m;
  {
    auto span = job_.profile->span("sampling");
    std::function<void(bool)> round = [this](bool counted) { begin_round(counted); };
    m = job_.protocol->run(sample_a, sample_b, job_.calibrate ? &sample_again : nullptr, &round);
  }
  if (!a_.clocks.empty() && !b_.clocks.empty())
    pt.clocks = ShapeClocks{a_.clocks.summary(m.a.n), b_.clocks.summary(m.b.n)};
  if (m.failed) {
    fail(pt, StepOutcome::fail, "timed launch failed: " + masked(m.stop_reason));
    return pt;
  }
  summarize(m, pt);
  off_cpu(m, pt);
  if (!physics(m, pt)) return pt;
  // The buffers go before the reference runs: a failing reference replaces the trusted device.
  for (Side* side : {&a_, &b_, &c_}) {
    side->batch.clear();
    side->slots.clear();
    side->fresh.base.reset();
    side->fresh.pools.reset();
  }
  verify(pt);
  return pt;
}

bool PointProtocol::prepare(int launches_a, int launches_b, PointTiming& pt) {
  auto span = job_.profile->span("upload");
  try {
    for (auto [side, n] : {std::pair{&a_, launches_a}, std::pair{&b_, launches_b},
                           std::pair{&c_, c_.impl ? launches_a : 0}}) {
      while (static_cast<int>(side->slots.size()) < n)
        side->slots.push_back(
            std::make_unique<DeviceSet>(*side->impl->device, *job_.task, job_.spec));
      side->batch.clear();
      for (int j = 0; j < n; ++j) side->batch.push_back(side->slots[j]->invocation(*side->impl));
    }
  } catch (const std::exception& e) {
    return fail(pt, StepOutcome::error,
                std::string("cannot prepare the timed buffers: ") + e.what());
  }
  return true;
}

// Fresh inputs for every slot of both sides (the same for A and B), every output poisoned
// (engine/execute/fresh_inputs.h: large tensors are rotations of a base on the device).
void PointProtocol::begin_round(bool counted) {
  counting_ = counted;
  size_t n = std::max(a_.batch.size(), b_.batch.size());
  {
    auto span = job_.profile->span("fresh inputs");
    fresh_.begin_round(n);
  }
  auto span = job_.profile->span("upload");
  for (Side* side : {&a_, &b_, &c_}) {
    if (side->batch.empty()) continue;
    Device& device = *side->impl->device;
    device.together([&] {
      fresh_.write(device, side->fresh, side->slots, side->batch.size(), *job_.launches);
    });
  }
}

Sample PointProtocol::sample(Side& side) {
  TimedResult t = side.impl->device->timed(side.batch, flush());
  side.clocks.add(t);
  return to_sample(t);
}

TimedResult PointProtocol::trial(Side& side, int repeat) {
  return side.slots.front()->timed(*side.impl, false, repeat);
}

// Reservoir sampling of one launch over the rounds: after k rounds each launch of each of them
// is the kept one with probability 1 / (k * batch).
void PointProtocol::keep_for_verification() {
  ++kept_rounds_;
  if (std::uniform_int_distribution<uint64_t>(1, kept_rounds_)(rng_) != 1) return;
  size_t j = std::uniform_int_distribution<size_t>(0, b_.batch.size() - 1)(rng_);
  auto span = job_.profile->span("re-check");
  DeviceSet& slot = *b_.slots[j];
  kept_ = Kept{fresh_.host_inputs(j), slot.download_inputs(), slot.download_outputs()};
}

// The kept launch's outputs against the reference for its inputs (correct-then-corrupt, skipped
// work, memoized outputs, inputs written by the candidate).
bool PointProtocol::verify(PointTiming& pt) {
  if (!kept_) return fail(pt, StepOutcome::error, "no timed launch was kept for verification");
  std::string error;
  std::shared_ptr<const HostSet> want;
  {
    auto span = job_.profile->span("reference run");
    want = job_.reference(kept_->inputs, &error);
  }
  if (!want) return fail(pt, StepOutcome::error, error);
  CheckResult c;
  {
    auto span = job_.profile->span("re-check");
    c = judge(*job_.task, kept_->inputs, kept_->after_inputs, kept_->outputs, *want, pt.rec);
  }
  pt.rec.correct = c.correct;
  if (c.correct) return true;
  pt.recheck_failed = true;
  pt.rec.reason =
      "outputs of a timed launch are wrong: " + (job_.heldout ? c.blind_reason : c.reason);
  return fail(pt, StepOutcome::fail, pt.rec.reason);
}

// Per launch: what the task says it must move or compute, in the time the device measured,
// against what the device can move or compute at all.
bool PointProtocol::physics(const InterleavedProtocol::Outcome& m, PointTiming& pt) {
  const model::Task& task = *job_.task;
  double per_launch = m.b.median;
  if (!(per_launch > 0)) return true;
  DeviceInfo info = b_.impl->device->info();
  double margin = info.physics_margin;
  if (task.bytes) {
    double rate = lang::eval_number(task.bytes, job_.spec.point, task) / per_launch;
    pt.rec.throughput = rate;
    size_t working_set = b_.batch.size() * set_bytes(task, job_.spec);
    double ceiling = bandwidth_ceiling(working_set);
    if (ceiling > 0 && rate > margin * ceiling) {
      bool dram = ceiling == b_.impl->device->info().peak_bandwidth;
      pt.rec.reason = "physics floor: " + rate_text(rate) + " is above " +
                      format("%.2fx", margin, 0) + " the device's " +
                      (dram ? "measured copy peak" : "cache-resident ceiling") + " (" +
                      rate_text(ceiling) + ")";
      return fail(pt, StepOutcome::fail, pt.rec.reason);
    }
  }
  if (task.flops) {
    double rate = lang::eval_number(task.flops, job_.spec.point, task) / per_launch;
    pt.rec.flop_rate = rate;
    if (info.peak_flops > 0 && rate > margin * info.peak_flops) {
      pt.rec.reason = format(
          "compute floor: %.4g GFLOP/s per launch is above %.2fx the device's peak (%.4g GFLOP/s)",
          rate * 1e-9, margin, info.peak_flops * 1e-9);
      return fail(pt, StepOutcome::fail, pt.rec.reason);
    }
  }
  return true;
}

// With CPU time as the timer, the wall clock beside it: a candidate whose launches spend most of
// their wall time off the device process's CPUs (waiting on memory the host has not backed yet,
// on another process, on the scheduler) is named in a note. Children's CPU time is counted by
// the device itself, and a child left running fails the launch there; on a virtual machine wall
// time includes time stolen by the host, so this is a note and not a verdict.
void PointProtocol::off_cpu(const InterleavedProtocol::Outcome& m, PointTiming& pt) {
  if (m.a_wall.n == 0 || m.b_wall.n == 0 || !(m.a_wall.median > 0) || !(m.b_wall.median > 0))
    return;
  double on_a = m.a.median / m.a_wall.median, on_b = m.b.median / m.b_wall.median;
  if (on_b >= kOffCpu || on_b >= kOffCpu * on_a) return;
  pt.notes.push_back(
      {"off_cpu", format("the candidate's launches spent %.0f%% of their wall time on the device "
                         "process's CPUs (the baseline's %.0f%%) at ",
                         100 * on_b, 100 * on_a) +
                      job_.label});
}

// The shape's speedup from its paired rounds, its interval widened by the calibration's offset:
// the baseline against itself (A / C) reads 1 only when the two sides run alike, and what it
// reads otherwise — two worker processes that run the same code differently for a while, on a
// busy machine by several percent — is in A / B as well (engine/measure/speedup.h). The offset
// is the far end of A / C's interval, not its estimate: A / C is itself measured, and an estimate
// of 1.00 over rounds whose interval reaches 1.5% leaves the two sides up to 1.5% apart (a
// Triton baseline against itself read 0.984x [0.971, 0.997] through two runners on an H100
// while its calibration's estimate was near 1).
void PointProtocol::summarize(const InterleavedProtocol::Outcome& m, PointTiming& pt) {
  const model::Timing& timing = job_.task->timing;
  pt.rec.baseline = m.a;
  pt.rec.candidate = m.b;
  pt.rec.speedup = m.speedup.estimate;
  pt.speedup = m.speedup;
  ShapeTiming t;
  t.rounds = m.speedup.rounds;
  t.batch = static_cast<int>(b_.batch.size());
  if (m.a_wall.n > 0) t.baseline_wall = m.a_wall.median;
  if (m.b_wall.n > 0) t.candidate_wall = m.b_wall.median;
  double offset = 0;
  if (m.calibration_ratio && m.calibration_ratio->estimate > 0) {
    t.calibration = m.calibration_ratio->estimate;
    pt.calibration = *m.calibration_ratio;
    offset = offset_bound(*m.calibration_ratio);
  }
  t.lo = m.speedup.lo * std::exp(-offset);
  t.hi = m.speedup.hi * std::exp(offset);
  SpeedupInterval widened = m.speedup;
  widened.lo = t.lo;
  widened.hi = t.hi;
  double width = widened.relative_half_width();
  double target = reliable_width(timing);
  if (!(width <= target)) {
    t.reliable = false;
    double statistical = m.speedup.relative_half_width();
    if (!m.speedup.has_interval())
      t.unreliable = "one round: no interval";
    else if (t.calibration && std::expm1(offset) > statistical)
      t.unreliable =
          format("calibration: the baseline read %.3fx against itself ", *t.calibration, 0) +
          (job_.cross ? "on the candidate's device" : "on its own device") +
          format(" (interval +-%.1f%% against %.1f%%)", 100 * width, 100 * target);
    else
      t.unreliable =
          format("noise target not reached: interval +-%.1f%% against %.1f%% after %.0f rounds",
                 100 * width, 100 * target, double(t.rounds));
  }
  if (!t.reliable && job_.heldout) t.unreliable = mask_numbers(t.unreliable);
  pt.timing = t;
}

double reliable_width(const model::Timing& timing) {
  return std::max(timing.max_noise, kPlainWidth);
}

double ColdProtocol::bandwidth_ceiling(size_t) const {
  // Every compulsory byte comes from DRAM after the flush.
  return job().cand->device->info().peak_bandwidth;
}

// As many launches as make a sample last about a millisecond, each with inputs of its own, so
// within what fresh inputs for every launch cost per round.
std::pair<int, int> BatchProtocol::size_batch() {
  auto span = job().profile->span("batch sizing");
  size_t bytes = std::max<size_t>(set_bytes(*job().task, job().spec), 1);
  int cap = static_cast<int>(std::clamp<size_t>(kFreshBytesPerRound / bytes, 1, kMaxBatchLaunches));
  BatchSizing sizing;
  sizing.max_repeat = cap;
  int a = batch_repeat([&](int n) { return to_sample(trial(baseline(), n)); }, sizing);
  int b = batch_repeat([&](int n) { return to_sample(trial(candidate(), n)); }, sizing);
  return {std::min(a, cap), std::min(b, cap)};
}

// Data a batch leaves in the cache (its working set fits) moves at the cache's rate.
double BatchProtocol::bandwidth_ceiling(size_t working_set) const {
  DeviceInfo info = job().cand->device->info();
  if (info.l2_bytes > 0 && working_set <= 4 * info.l2_bytes)
    return info.cache_bandwidth > 0 ? info.cache_bandwidth : kCacheOverDram * info.peak_bandwidth;
  return info.peak_bandwidth;
}

std::unique_ptr<PointProtocol> make_point_protocol(PointJob job) {
  if (job.task->timing.mode == model::Timing::Mode::cold)
    return std::make_unique<ColdProtocol>(std::move(job));
  return std::make_unique<BatchProtocol>(std::move(job));
}

}  // namespace kta::engine
