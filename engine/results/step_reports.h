// What each step of a job concluded, as typed values. A step returns one of these reports; the
// results store keeps it as JSON through the one to_json/from_json pair of its type, a resumed
// run reads it back the same way, and the job's gate ledger and TaskOutcome are filled from the
// typed fields, never from re-parsed text.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kta::engine {

using Json = nlohmann::ordered_json;

// Token counts and cost of an agent run, where its CLI reported them; unset, never 0, when not.
// input_tokens counts every prompt token the model read, cache reads and writes included (the
// cache fields say how many of them).
struct AgentUsage {
  std::optional<int64_t> input_tokens;
  std::optional<int64_t> output_tokens;
  std::optional<int64_t> cache_read_tokens;
  std::optional<int64_t> cache_write_tokens;
  std::optional<double> cost_usd;
  // The cost is kta's, from the agent declaration's prices, not the CLI's own figure.
  bool cost_computed = false;
  // Tool calls the model made, and how many of them failed (a failed write, a command that exited
  // non-zero), where the stream tells.
  std::optional<int64_t> tool_calls;
  std::optional<int64_t> failed_tool_calls;
  bool any() const { return input_tokens || output_tokens || cost_usd; }
  bool operator==(const AgentUsage&) const = default;
};

// What a command agent's run did, as the prepare step records it.
struct AgentRecord {
  std::string status;  // "exit 0", "timeout after 3600 s", "agent not started: ..."
  // The run in one line: "agent finished; candidate unchanged from the baseline; 2 of 3 tool
  // calls failed" (AgentRun::summary).
  std::string summary;
  double wall_seconds = 0;
  std::optional<int> exit_code;
  std::optional<int> signal;
  bool timed_out = false;
  AgentUsage tokens;
  std::vector<std::string> changed_files;
  bool unchanged = false;  // the editable files are the baseline's
  std::vector<std::string> ignored_writes;
  std::string sandbox;  // "bwrap" | "none"
  std::string sandbox_note;
  // How the agent's whole process tree was kept together ("pid namespace", "cgroup",
  // "process-tree walk", "pid namespace (bwrap)") and how many strays it killed at the end.
  std::string containment;
  int swept = 0;
  bool network = true;
  std::string log, prompt, home;  // relative to the run folder
  bool operator==(const AgentRecord&) const = default;
};

struct CandidateFileRecord {
  std::string file;
  bool found = true;  // false: no solution, the baseline's file was used
  bool operator==(const CandidateFileRecord&) const = default;
};

struct PrepareReport {
  std::optional<AgentRecord> agent;  // command agents only
  std::vector<CandidateFileRecord> files;
  std::string candidate_hash;
  bool operator==(const PrepareReport&) const = default;
};

// What a role's code ran on: name, kind, and (hip) architecture, versions, what opening took.
struct DeviceRecord {
  std::string name, kind, details;
  int warp_size = 0;  // what the code was compiled for and ran at; 0: not recorded (older runs)
  bool operator==(const DeviceRecord&) const = default;
};

// Something worth a reader's attention that is not a failure ("clock_mismatch": ...).
struct Note {
  std::string name, text;
  bool operator==(const Note&) const = default;
};

struct CompileReport {
  std::optional<DeviceRecord> device;  // when it compiled
  std::string log;                     // the compiler's output when it did not (clipped)
  // "compile_cache": an entry that failed authentication and was rebuilt.
  std::vector<Note> notes;
  bool operator==(const CompileReport&) const = default;
};

struct CorrectnessReport {
  int checked = 0, failed = 0;  // candidate launches checked / wrong
  bool candidate_correct = false;
  // Held-out only: the baseline runs on the held-out points too (the quadrant needs both).
  std::optional<bool> baseline_correct;
  std::string baseline_reason;
  // "reference_cache": an entry that failed authentication, and the reference ran again.
  std::vector<Note> notes;
  bool operator==(const CorrectnessReport&) const = default;
};

// SM and memory clocks read after the timed samples of one role (MHz).
struct RoleClocks {
  double sm_median = 0, sm_min = 0, sm_max = 0;
  int samples = 0;
  std::optional<double> mem_median;
  bool operator==(const RoleClocks&) const = default;
};
struct ShapeClocks {
  RoleClocks baseline, candidate;
  bool operator==(const ShapeClocks&) const = default;
};

struct SpeedupEstimate {
  double estimate = 0, lo = 0, hi = 0;  // geomean over shapes with its 95% interval
  bool operator==(const SpeedupEstimate&) const = default;
};

// How one shape's speedup was measured (docs/eval.md, "Performance").
struct ShapeTiming {
  double lo = 0, hi = 0;  // the shape's 95% interval from its paired rounds
  int rounds = 0;         // paired rounds A B it rests on
  int batch = 1;          // launches per sample
  // False when the shape did not reach its noise target (its interval is wider than the
  // timing's max_noise and sampling stopped on the budget or the sample cap) or its calibration
  // read off by more than that; `unreliable` says which.
  bool reliable = true;
  std::string unreliable;
  // The baseline against itself (A / C), calibrated shapes; lo and hi above include its offset.
  std::optional<double> calibration;
  // Wall-clock medians per launch when the device's timer is another clock (CPU time).
  std::optional<double> baseline_wall, candidate_wall;
  bool operator==(const ShapeTiming&) const = default;
};

// The run's own calibration of a task's speedup: the baseline measured against itself on every
// calibrated shape (rounds A B C), its mean offset widening the task's interval.
struct TaskCalibration {
  double offset = 1;  // geometric mean of A / C over the calibrated shapes (1: the sides agree)
  int shapes = 0;     // calibrated shapes
  // Where C ran: the baseline on the candidate's device (hip2hip, triton2triton), which sees
  // the two workers' difference, or on its own device again (torch2hip), which does not.
  bool on_candidate_device = false;
  bool operator==(const TaskCalibration&) const = default;
};

// The performance gate's decision: the task's interval against min_speedup.
enum class GateVerdict { none, pass, fail, inconclusive };
const char* gate_verdict_name(GateVerdict v);  // "" "pass" "fail" "inconclusive"

struct PerformanceReport {
  std::optional<SpeedupEstimate> speedup;  // unset when no shape was timed to the end
  int shapes = 0;                          // shapes the speedup is over
  std::optional<double> min_speedup;       // the gate's target, when it applied
  GateVerdict verdict = GateVerdict::none;
  std::string clock;  // the candidate device's timer ("process-cpu", "gpu-events", "steady")
  // The spread across shapes (not measurement error): the smallest and largest per-shape speedup.
  std::optional<double> shape_min, shape_max;
  int unreliable = 0;  // shapes whose speedup is not reliable
  // False when the task's interval (calibration offset included) is wider than the timing's
  // max_noise and +-5%: the speedup prints "~1.37x noisy" and decides the gate only from one
  // side of the target.
  bool reliable = true;
  std::optional<TaskCalibration> calibration;
  std::vector<ShapeTiming> timing;  // per timed shape, in order
  bool recheck_failed =
      false;  // outputs of a timed launch were wrong: the candidate is not correct
  // Per timed shape, in order; empty when the device cannot read clocks (never zeros).
  std::vector<std::optional<ShapeClocks>> clocks;
  std::vector<Note> notes;
  std::optional<double> peak_bandwidth;  // bytes/s, the device's measured copy peak
  std::vector<double> percent_of_peak;   // per timed shape, when the task annotates bytes
  bool operator==(const PerformanceReport&) const = default;
};

struct AuditReport {
  int findings = 0;
  std::string summary;  // "2 findings (kta-shape-literal)"
  Json details;         // the analyzer's JSON findings; null when it did not run
  // The analyzer's first parse error ("k.hip:12:5: use of undeclared identifier 'x'"); empty
  // when every file parsed. A file it cannot read is not audited, so this is the step's reason.
  std::string parse_error;
  bool operator==(const AuditReport&) const = default;
};

// The typed part of a step record. `profile` is where the step's wall time went (seconds per
// phase); `unavailable` marks a step skipped because this device cannot run the task at all.
struct StepPayload {
  std::variant<std::monostate, PrepareReport, CompileReport, CorrectnessReport, PerformanceReport,
               AuditReport>
      report;
  std::map<std::string, double> profile;
  bool unavailable = false;
  bool operator==(const StepPayload&) const = default;
};

void to_json(Json& j, const AgentUsage& u);
void from_json(const Json& j, AgentUsage& u);
void to_json(Json& j, const AgentRecord& a);
void from_json(const Json& j, AgentRecord& a);
void to_json(Json& j, const PrepareReport& r);
void from_json(const Json& j, PrepareReport& r);
void to_json(Json& j, const CompileReport& r);
void from_json(const Json& j, CompileReport& r);
void to_json(Json& j, const CorrectnessReport& r);
void from_json(const Json& j, CorrectnessReport& r);
void to_json(Json& j, const PerformanceReport& r);
void from_json(const Json& j, PerformanceReport& r);
void to_json(Json& j, const AuditReport& r);
void from_json(const Json& j, AuditReport& r);

// A payload as one flat JSON object: the report's fields, then "profile" and "unavailable" when
// set. Reading it back needs the step's kind (records.h: payload_from_json).
Json payload_json(const StepPayload& p);

}  // namespace kta::engine
