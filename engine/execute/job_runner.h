// One job (task x agent x repeat) through its steps. Internal to the executor.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/agents/agent.h"
#include "engine/agents/agent_run.h"
#include "engine/execute/bindings.h"
#include "engine/execute/executor.h"
#include "engine/execute/judge.h"
#include "engine/execute/point_protocol.h"
#include "engine/execute/reference_cache.h"
#include "engine/execute/step_profile.h"
#include "engine/measure/speedup.h"

namespace kta::engine {

// The results store shared by parallel jobs: one writer at a time.
struct SharedStore {
  ResultStore& store;
  std::mutex mu;
};

// What a step concluded, before it becomes a StepRecord.
struct StepResult {
  StepOutcome outcome = StepOutcome::ok;
  std::string reason;
  StepPayload payload;
  std::vector<ShapeRecord> shapes;
};

// What the job's gates concluded so far, filled only from typed step records (so a resumed run
// reaches the same state as an uninterrupted one).
struct GateLedger {
  bool prepared = false, baseline_compiled = false, candidate_compiled = false;
  bool visible_correct = false;
  std::optional<bool> heldout_baseline, heldout_candidate;
};

// What one implementation's checks concluded so far in a correctness step.
struct RoleChecks {
  std::optional<std::string> first_failure;  // the first check it failed, where
  bool dead = false;  // it does not compile, or a launch crashed or hung: not launched again
};

class JobRunner {
 public:
  JobRunner(const Plan& plan, const TaskJob& job, SharedStore& store,
            const ExecuteOptions& options);
  TaskOutcome run();

 private:
  // The step wrapper: resume or run, record, apply.
  void step(const PlanStep& s);
  StepResult run_step(StepKind kind);
  void apply(const StepRecord& rec, std::vector<ShapeRecord> shapes);
  void apply_report(const StepRecord& rec);

  // Steps (each in its own file: step_*.cpp).
  StepResult prepare();
  // Why the task is degenerate (engine/check/degenerate.h) at a visible point, from the
  // reference's outputs for two seeds or more; nullopt when it is not, or the reference failed.
  std::optional<std::string> degenerate_task();
  StepResult compile(ImplRole role);
  StepResult correctness(bool heldout);
  // Every seed of one point: the reference's outputs, then each role's launch judged against
  // them (candidate records into `shapes`). Returns why the reference gave no outputs, which
  // ends the step.
  std::optional<std::string> check_point(const std::vector<model::ShapePoint>& points, size_t i,
                                         bool heldout, const std::vector<ImplRole>& roles,
                                         std::map<ImplRole, RoleChecks>& checks,
                                         std::vector<ShapeRecord>& shapes);
  // One launch of `im` on its buffers `set` (made on first use) judged against the reference's
  // outputs `want` (its error figures into `rec`); a launch that did not run drops the role's
  // device.
  CheckResult check_launch(const Impl& im, const PointSpec& spec, const HostSet& in,
                           const HostSet& want, ShapeRecord& rec, std::unique_ptr<DeviceSet>& set);
  StepResult performance(bool heldout);
  StepResult audit();
  PointJob point_job(const Impl& base, const Impl& cand, const Impl* cross,
                     const model::ShapePoint& point, const std::string& label, bool heldout,
                     const InterleavedProtocol& protocol);
  void speedup_verdict(const std::vector<SpeedupInterval>& shapes,
                       const std::vector<SpeedupInterval>& calibrations, bool cross, bool heldout,
                       StepResult& r, PerformanceReport& report) const;

  // Devices and compiled implementations, made on first use and remade after a failure. Python
  // entries (torch, triton) run on the role's python runner device, HIP entries on its device.
  Device& device(DeviceRole role, model::Flavor flavor = model::Flavor::hip);
  void drop_device(DeviceRole role);
  const Impl* impl(ImplRole role, std::string* error);
  std::optional<Impl>& impl_slot(ImplRole role);
  const Impl* baseline_on_candidate_device();
  CompileResult compile_on(ImplRole role, const model::Entry& entry);
  void warm_up(Device& d, uint64_t module, const model::Entry& entry);

  // Engine-drawn inputs for one (point, seed), drawn once per job (memo_).
  std::shared_ptr<const HostSet> inputs(const PointSpec& spec, uint64_t seed);
  // Reference outputs for one (point, seed): from memo_, the disk cache, or computed on the
  // trusted device. Null on failure, with `error` set.
  std::shared_ptr<const HostSet> reference(const PointSpec& spec, uint64_t seed,
                                           const HostSet& inputs, std::string* error);
  // The reference run on the trusted device for any inputs (no cache: timing's fresh inputs).
  std::shared_ptr<const HostSet> run_reference(const PointSpec& spec, const HostSet& inputs,
                                               std::string* error);
  // How a point is named in messages: its values when visible, only its index when held-out.
  std::string point_label(const std::vector<model::ShapePoint>& points, size_t i,
                          bool heldout) const;

  const Plan& plan_;
  const TaskJob& job_;
  SharedStore& store_;
  const ExecuteOptions& options_;
  ReferenceCache cache_;
  std::filesystem::path workspace_;

  std::map<DeviceKey, std::unique_ptr<Device>> devices_;
  // Set when this device cannot run the task at all (triton without a GPU): every later step is
  // skipped with this reason and the task counts as skipped, never as passed or failed.
  std::string unavailable_;
  std::optional<Impl> reference_, baseline_, candidate_impl_;
  // The baseline compiled on the candidate's device: calibration rounds compare it with the
  // baseline on the trusted device (engine/execute/point_protocol.h).
  std::optional<Impl> baseline_cross_;
  bool cross_tried_ = false;
  std::optional<PreparedCandidate> prepared_;
  uint64_t launches_ = 0;
  // Inputs and reference outputs by (point, seed), kept for the whole job up to kMemoBytes: the
  // held-out step checks baseline and candidate on the same seeds, and drawing or loading a
  // mebi-element tensor costs milliseconds (timing draws fresh inputs of its own, never these).
  // Past the budget they are drawn again when needed.
  static constexpr size_t kMemoBytes = size_t(512) << 20;
  std::map<std::string, std::shared_ptr<const HostSet>> memo_;
  size_t memo_bytes_ = 0;
  void remember(const std::string& key, const std::shared_ptr<const HostSet>& set);
  // The next (point, seed)'s inputs, drawn on another thread while the current one is launched
  // and compared; inputs() collects it.
  struct Prefetch {
    std::string key;
    std::future<std::shared_ptr<const HostSet>> set;
  };
  Prefetch prefetch_;
  void prefetch_inputs(const PointSpec& spec, uint64_t seed);
  StepProfile profile_;  // the running step's phases
  std::string compile_log_;
  // Cache entries that failed authentication since the last compile or correctness step
  // recorded them ("compile_cache", "reference_cache").
  std::vector<Note> compile_notes_, cache_notes_;

  GateLedger gates_;
  TaskOutcome outcome_;
};

}  // namespace kta::engine
