// `kta validate`: whether a task is a sound benchmark, decided on the device before any agent
// runs. Each check (validation_checks(), in the order they run and print) ends in pass, warn,
// fail or skip with a named reason; a task is sound when no check fails. docs/validate.md
// describes each check with the mistake it catches.
//
//   reference.meaningful  not constant, not all zeros within tolerance, depends on the seed,
//                         no NaN/Inf the tolerance cannot match, at every visible point
//   reference.inputs      each input redrawn in turn changes some output beyond tolerance
//   determinism           two runs of the reference on the same inputs give the same bytes; a
//                         reference accumulating with float atomics is named
//   tolerance.margin      the baseline passes every point and seed, using at most half the bound
//   tolerance.cheap       all zeros, an input passed through, the reference one precision step
//                         down, the reference with 1% of elements wrong: each fails
//   heldout.baseline      the baseline is correct on every held-out point
//   heldout.points        held-out points differ from visible ones and reach sizes that are not
//                         multiples of 32 and edge sizes (1 or a small prime) of each varied param
//   timing.self           the baseline against itself reads 1.00x within the run's own interval
//   timing.floor          every visible point's baseline time is at least 10 ticks of the timer
//                         (or the task uses batch timing)
//   timing.physics        `bytes` is at most what the task's tensors hold; the baseline stays
//                         under the device's physics floor
//   timing.shapes         the timed points are the checked points
//   starter               a starter of the candidate's own (torch2hip) is correct on visible and
//                         held-out points
//   solutions             each solution (--solutions, a plan's replay folder) is correct on
//                         visible and held-out points; its speedup is reported
//   prompt                the prompt builds, names every editable file and the entry, and holds
//                         no held-out value
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "engine/agents/agent_run.h"
#include "engine/execute/executor.h"
#include "engine/results/step_reports.h"
#include "lang/model.h"

namespace kta::engine {

enum class CheckLevel { pass, warn, fail, skip };
const char* check_level_name(CheckLevel level);  // "pass" "warn" "fail" "skip"

// One check's outcome for one task.
struct CheckOutcome {
  std::string name;  // "tolerance.cheap"
  CheckLevel level = CheckLevel::pass;
  std::string reason;                // one line: what was found, where
  std::vector<std::string> details;  // further findings, one line each
};

// Every check of one task, in validation_checks() order.
struct TaskValidation {
  std::string task, file, kind, hash;
  std::string device;  // the device identity the checks ran on ("cpu/warp64")
  std::vector<CheckOutcome> checks;
  double seconds = 0;   // what validating took (when not cached)
  bool cached = false;  // read back from the validation cache
  int count(CheckLevel level) const;
  bool failed() const { return count(CheckLevel::fail) > 0; }
  const CheckOutcome* check(const std::string& name) const;
};

// The checks' names with one line each on the mistake it catches.
const std::vector<std::pair<std::string, std::string>>& validation_checks();

struct ValidateOptions {
  std::string device = "cpu";  // resolved device spec
  int warp_size = 0;           // as in PlanOptions
  int seeds = 0;               // seeds per point; 0: the task's correctness seeds, at least 2
  bool quick = false;          // short timing for the timing checks' run (CI)
  // Solutions laid out as the replay agent reads them (DIR/<task>/<file>); empty: none.
  std::filesystem::path solutions;
  // A folder of its own for the executor's runs (timing, solutions); the caller removes it.
  std::filesystem::path scratch;
  std::filesystem::path cache_dir;  // kta's cache (Settings::cache_dir); empty: no caching
  std::string version;              // kta's version: part of the validation cache key
  DeviceFactory make_device;        // trusted and candidate devices, native and python
  AgentRunOptions agents;           // prompt templates and stdlib (Settings)
};

// Validates one task; never throws for a broken task (each problem is a check's outcome).
TaskValidation validate_task(const model::Task& task, const ValidateOptions& options);

// The validation cache: a task's validation by the hash of its content, the device, the options
// and kta's version; nullopt on a miss (or an entry that does not parse).
std::string validation_key(const model::Task& task, const ValidateOptions& options);
std::optional<TaskValidation> load_cached_validation(const ValidateOptions& options,
                                                     const std::string& key);
void store_cached_validation(const ValidateOptions& options, const std::string& key,
                             const TaskValidation& v);

Json to_json(const TaskValidation& v);
TaskValidation validation_from_json(const Json& j);

}  // namespace kta::engine
