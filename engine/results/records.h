// The plain records the results store keeps and the exporters write: one run, its steps (each
// with the typed report of what it concluded, engine/results/step_reports.h), and per-shape
// results of the correctness and performance steps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/measure/stats.h"
#include "engine/results/step_reports.h"
#include "lang/model.h"

namespace kta::engine {

// Identity of a run. `secret` derives generated held-out points; it lives only in the run's
// database, which sits in the run folder outside any agent workspace.
struct RunInfo {
  std::string plan_hash;
  std::string plan_name;
  std::string device;
  std::string kta_version;
  std::string started;  // ISO 8601 UTC
  std::string secret;
  // The warp size the run's code was built for; 0: unknown. Not kept in results.db: each
  // (resumed) run sets it from its plan and device.
  int warp_size = 0;
};

enum class StepOutcome { ok, fail, skip, error };
const char* outcome_name(StepOutcome o);  // "ok" "fail" "skip" "error"
std::optional<StepOutcome> parse_outcome(std::string_view s);

// The fixed step order per task (the plan's order of work).
enum class StepKind {
  prepare,
  baseline_compile,
  candidate_compile,
  visible_correctness,
  visible_performance,
  audit,
  heldout_correctness,
  heldout_performance,
};
// "prepare" "baseline-compile" "candidate-compile" "correctness" "performance" "audit"
// "heldout-correctness" "heldout-performance": how the store, logs and reports name steps.
std::string_view step_name(StepKind kind);
std::optional<StepKind> parse_step_kind(std::string_view name);

// The report type a step of this kind writes, read back from its payload_json.
StepPayload payload_from_json(const Json& j, StepKind kind);

// Which grid a shape point came from.
enum class PointSet { visible, heldout };
const char* point_set_name(PointSet s);  // "visible" "heldout"
std::optional<PointSet> parse_point_set(std::string_view s);

// One finished step of the plan. `key` is the content hash of everything the step depends on,
// so a resumed run recognizes it.
struct StepRecord {
  std::string key;
  std::string task;
  std::string task_hash;  // model::Task::content_hash of the task the step ran
  std::string agent;
  int repeat = 0;
  StepKind step = StepKind::prepare;
  StepOutcome outcome = StepOutcome::ok;
  std::string reason;  // why it failed or was skipped; empty when ok
  double wall_seconds = 0;
  StepPayload payload;   // what the step concluded, typed by `step`
  std::string finished;  // ISO 8601 UTC; filled by the store when empty
};

// The result at one shape point of a correctness or performance step.
struct ShapeRecord {
  PointSet set = PointSet::visible;
  model::ShapePoint point;
  std::optional<uint64_t> seed;  // correctness: the input seed; performance: unset
  // correctness (unset fields when the step only timed)
  std::optional<bool> correct;
  double max_abs_error = 0;
  double max_rel_error = 0;
  uint64_t mismatches = 0;
  int64_t first_bad_index = -1;
  std::string reason;  // failure reason, empty on pass
  // performance
  std::optional<Stats> baseline;
  std::optional<Stats> candidate;
  std::optional<double> speedup;     // median(baseline) / median(candidate)
  std::optional<double> throughput;  // bytes/s of the candidate when the task annotates bytes
  std::optional<double> flop_rate;   // flop/s of the candidate when the task annotates flops

  bool operator==(const ShapeRecord&) const = default;
};

// "N=4096,M=8" — the canonical text form of a shape point (stable across runs).
std::string shape_text(const model::ShapePoint& p);

// results.json's form of a shape result (raw samples are kept in results.db only).
void to_json(nlohmann::ordered_json& j, const ShapeRecord& s);
void from_json(const nlohmann::ordered_json& j, ShapeRecord& s);
void to_json(nlohmann::ordered_json& j, const Stats& s);
void from_json(const nlohmann::ordered_json& j, Stats& s);

}  // namespace kta::engine
