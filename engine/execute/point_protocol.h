// The measurement of one shape point, baseline against candidate, under the task's protocol:
// ColdProtocol (caches flushed before every sample, one launch per sample) or BatchProtocol
// (warm caches, a batch of back-to-back launches per sample). Both read the same way:
//
//   prepare      per side, a slot per launch of a sample: the task's tensors on the device
//   size batch   cold: one launch; batch: as many as make a sample last about a millisecond,
//                within what fresh inputs for every launch cost
//   each round   draw fresh inputs for every slot (never seen before by either side), upload
//                them to both sides, poison every output; then sample A, B and C (the
//                baseline against itself: on the candidate's device where the baseline runs
//                there, else on its own again), each timed by the device alone; a uniformly
//                random launch
//                of a uniformly random round is kept for verification (reservoir sampling, the
//                engine's own randomness: the candidate cannot tell which)
//   stop         InterleavedProtocol's rule: noise, sample cap or budget
//   verify       the kept launch's outputs against the reference of its inputs, its inputs
//                against what was uploaded
//   physics      per launch: bytes per second against the device's measured ceiling (cache
//                resident or DRAM), flops per second against its compute bound
//   summarize    the paired-round speedup and its interval, widened by the calibration's
//                offset (A / C), and whether it is reliable
//
// So memoizing by pointer, by content or by call count never sees the same inputs twice, a
// launch that skips work when its output looks computed (or computes only when it looks
// poisoned) is always handed poison, and correct-then-corrupt is caught wherever it happens.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/execute/bindings.h"
#include "engine/execute/fresh_inputs.h"
#include "engine/execute/step_profile.h"
#include "engine/measure/protocol.h"
#include "engine/results/records.h"
#include "engine/results/step_reports.h"

namespace kta::engine {

// The measurement of one shape point in a performance step.
struct PointTiming {
  StepOutcome outcome = StepOutcome::ok;
  std::string reason;
  bool recheck_failed = false;
  ShapeRecord rec;
  std::optional<ShapeClocks> clocks;  // per role SM/memory clocks of the samples; unset: unreadable
  std::optional<ShapeTiming> timing;  // set once the point was timed to the end
  SpeedupInterval speedup;            // the paired-round speedup behind rec.speedup (statistical)
  // A / C of a calibrated point, with its interval: the baseline against itself.
  std::optional<SpeedupInterval> calibration;
  std::vector<Note> notes;
};

// The GPU clocks read after each timed sample of one role (0: not readable, never recorded).
class ClockSeries {
 public:
  void add(const TimedResult& t);
  bool empty() const { return sm_.empty(); }
  // Over the last `counted` readings: the protocol counts the samples after its warm-up.
  RoleClocks summary(int counted) const;

 private:
  std::vector<double> sm_, mem_;
};

// What a point's measurement needs from its job.
struct PointJob {
  const model::Task* task = nullptr;
  const Impl* base = nullptr;
  const Impl* cand = nullptr;
  PointSpec spec;
  std::string label;  // how the point is named in messages (an index when held-out)
  bool heldout = false;
  // Rounds A B C on a calibrated point: the baseline against itself as well. C is the baseline
  // on the candidate's device (`cross`, where the baseline runs there: same flavor), else on
  // its own device again (A').
  bool calibrate = false;
  const Impl* cross = nullptr;
  const InterleavedProtocol* protocol = nullptr;
  StepProfile* profile = nullptr;
  uint64_t* launches = nullptr;  // the job's launch counter (poison patterns alternate by it)
  // Reference outputs for inputs drawn by the engine, from the trusted device; null with
  // *error set on failure.
  std::function<std::shared_ptr<const HostSet>(const HostSet& inputs, std::string* error)>
      reference;
};

class PointProtocol {
 public:
  explicit PointProtocol(PointJob job);
  virtual ~PointProtocol();
  PointTiming run();

 protected:
  virtual bool flush() const = 0;
  // Launches per sample of the baseline and the candidate, given one slot per side (with fresh
  // inputs) to time trial samples on.
  virtual std::pair<int, int> size_batch() = 0;
  // Bytes per timer-second no real launch exceeds here, for a sample's working set.
  virtual double bandwidth_ceiling(size_t working_set) const = 0;

  struct Side {
    const Impl* impl = nullptr;
    std::vector<std::unique_ptr<DeviceSet>> slots;  // one per launch of a sample
    std::vector<Invocation> batch;                  // a sample: one launch per slot
    FreshInputs::SideBuffers fresh;                 // the base set fresh inputs rotate from
    ClockSeries clocks;
  };
  TimedResult trial(Side& side, int repeat);  // batch sizing: `repeat` launches of slot 0
  const PointJob& job() const { return job_; }
  Side& baseline() { return a_; }
  Side& candidate() { return b_; }
  // The calibration series' side: the baseline on the candidate's device, or A itself.
  Side& calibration() { return job_.cross ? c_ : a_; }

 private:
  bool prepare(int launches_a, int launches_b, PointTiming& pt);
  void begin_round(bool counted);
  Sample sample(Side& side);
  void keep_for_verification();
  bool verify(PointTiming& pt);
  bool physics(const InterleavedProtocol::Outcome& m, PointTiming& pt);
  void off_cpu(const InterleavedProtocol::Outcome& m, PointTiming& pt);
  void summarize(const InterleavedProtocol::Outcome& m, PointTiming& pt);
  bool fail(PointTiming& pt, StepOutcome outcome, const std::string& why);
  std::string masked(const std::string& text) const;

  PointJob job_;
  Side a_, b_, c_;
  bool counting_ = false;     // this round is one of the protocol's counted rounds
  uint64_t kept_rounds_ = 0;  // rounds eligible for verification
  std::mt19937_64 rng_;
  FreshInputs fresh_;  // every round's inputs, the batch sizing's too: none comes twice
  struct Kept {
    HostSet inputs, after_inputs, outputs;
  };
  std::optional<Kept> kept_;
  std::string error_;  // a failure inside a sample, reported by the protocol
};

class ColdProtocol final : public PointProtocol {
 public:
  using PointProtocol::PointProtocol;

 protected:
  bool flush() const override { return true; }
  std::pair<int, int> size_batch() override { return {1, 1}; }
  double bandwidth_ceiling(size_t working_set) const override;
};

class BatchProtocol final : public PointProtocol {
 public:
  using PointProtocol::PointProtocol;

 protected:
  bool flush() const override { return false; }
  std::pair<int, int> size_batch() override;
  double bandwidth_ceiling(size_t working_set) const override;
};

std::unique_ptr<PointProtocol> make_point_protocol(PointJob job);

// How wide a speedup's interval may be (relative half-width) and still count as reliable: the
// timing's max_noise, or +-5% where that is finer (0.5% is a GPU's figure; a busy cpu device
// rarely gets there, and a speedup known to within 5% prints plainly).
double reliable_width(const model::Timing& timing);

}  // namespace kta::engine
