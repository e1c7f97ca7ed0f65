// One job (task x agent x repeat) through its steps. Internal to the executor.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/agents/agent.h"
#include "engine/agents/agent_run.h"
#include "engine/execute/bindings.h"
#include "engine/execute/executor.h"
#include "engine/execute/reference_cache.h"

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
  nlohmann::json payload = nlohmann::json::object();
  std::vector<ShapeRecord> shapes;
};

// The measurement of one shape point in a performance step.
struct PointTiming {
  StepOutcome outcome = StepOutcome::ok;
  std::string reason;
  bool recheck_failed = false;
  ShapeRecord rec;
};

class InterleavedProtocol;

class JobRunner {
 public:
  JobRunner(const Plan& plan, const TaskJob& job, SharedStore& store, const ExecuteOptions& options);
  TaskOutcome run();

 private:
  // The step wrapper: resume or run, record, apply.
  void step(const PlanStep& s);
  StepResult run_step(StepKind kind);
  void apply(StepKind kind, const StepRecord& rec, const std::vector<ShapeRecord>& shapes);

  // Steps (each in its own file: step_*.cpp).
  StepResult prepare();
  StepResult compile(const std::string& role);
  StepResult correctness(bool heldout);
  StepResult performance(bool heldout);
  StepResult audit();
  PointTiming time_point(const Impl& base, const Impl& cand, const model::ShapePoint& point,
                         const std::string& label, bool heldout, const InterleavedProtocol& protocol);
  void speedup_verdict(const std::vector<double>& ratios, bool heldout, StepResult& r) const;

  // Devices and compiled implementations, made on first use and remade after a failure. Python
  // entries (torch, triton) run on the role's python runner device, HIP entries on its device.
  Device& device(const std::string& role, model::Flavor flavor = model::Flavor::hip);
  void drop_device(const std::string& role);
  const Impl* impl(const std::string& role, std::string* error);
  CompileResult compile_on(const std::string& role, const model::Entry& entry);

  // Reference outputs for one (point, seed): from the cache or computed on the trusted device.
  std::optional<HostSet> reference(const PointSpec& spec, uint64_t seed, const HostSet& inputs,
                                   std::string* error);
  // How a point is named in messages: its values when visible, only its index when held-out.
  std::string point_label(const std::vector<model::ShapePoint>& points, size_t i, bool heldout) const;

  const Plan& plan_;
  const TaskJob& job_;
  SharedStore& store_;
  const ExecuteOptions& options_;
  ReferenceCache cache_;
  std::filesystem::path workspace_;

  std::unique_ptr<Device> trusted_, candidate_, trusted_python_, candidate_python_;
  // Set when this device cannot run the task at all (triton without a GPU): every later step is
  // skipped with this reason and the task counts as skipped, never as passed or failed.
  std::string unavailable_;
  std::optional<Impl> reference_, baseline_, candidate_impl_;
  std::optional<PreparedCandidate> prepared_;
  uint64_t launches_ = 0;
  std::string compile_log_;

  // Gate state, derived from step records (so a resumed run reaches the same state).
  bool prepared_ok_ = false, baseline_ok_ = false, candidate_ok_ = false;
  bool visible_correct_ = false;
  std::optional<bool> heldout_baseline_, heldout_candidate_;
  TaskOutcome outcome_;
};

// Names of device roles.
inline const std::string kTrusted = "trusted";
inline const std::string kCandidate = "candidate";

}  // namespace kta::engine
