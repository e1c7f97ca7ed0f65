// One task evaluated for one agent and repeat: what the executor concluded from the job's typed
// step reports, and what results.json carries per task (one to_json/from_json for the exports,
// `kta compare` and every other reader).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/results/records.h"

namespace kta::engine {

struct TaskOutcome {
  std::string task;
  std::string task_hash;  // model::Task::content_hash: tells a changed task apart across runs
  std::string kind;       // "hip2hip" ...
  std::string agent;
  int repeat = 0;
  bool compiled = false;     // candidate compiled (and its signature checked)
  bool correct = false;      // visible correctness gate passed
  bool fast_enough = false;  // performance gate passed (true when no gate is declared)
  // The performance gate could not decide: the speedup rests on unreliable shapes (a noise
  // target not reached, a calibration off). Neither passed nor failed; fast_enough is false.
  bool inconclusive = false;
  // The visible speedup rests on at least one unreliable shape ("~1.37x noisy" in the table).
  bool speedup_noisy = false;
  double speedup = 0;                     // geomean over visible shapes (0 when not measured)
  double speedup_lo = 0, speedup_hi = 0;  // bootstrap CI
  std::optional<bool> baseline_heldout_correct;
  std::optional<bool> heldout_correct;
  std::optional<double> heldout_speedup;
  std::string quadrant;  // see heldout_quadrant(); empty when held-out was not run
  // The held-out gate (`gate heldout { require correct }`, the default): false when the candidate,
  // correct on the visible shapes, is wrong on held-out points and the task requires them.
  bool heldout_passed = true;
  std::string failure_reason;  // first failing gate's reason; empty on success
  // Set when the task could not be evaluated on this device at all ("triton not available: ..."):
  // shown as skipped, left out of every figure (never counted as passed nor as failed).
  std::string skipped;
  double agent_seconds = 0;
  int agent_exit = 0;
  // Command agents (the prepare step's AgentRecord); empty/unset for built-in agents.
  std::string agent_status;             // "exit 0", "timeout after 3600 s", ...
  std::string agent_summary;            // AgentRecord::summary
  std::optional<int64_t> input_tokens;  // unset when the CLI did not report them
  std::optional<int64_t> output_tokens;
  std::optional<double> cost_usd;
  bool cost_computed = false;  // from the declaration's prices, not the CLI's own figure
  std::optional<int64_t> tool_calls, failed_tool_calls;
  bool candidate_unchanged = false;  // the agent left the editable files as the baseline
  std::vector<std::string> changed_files;
  std::vector<std::string> ignored_writes;  // recorded, not taken back
  std::string sandbox;                      // "bwrap" | "none"
  std::string sandbox_note;   // why there is none, and that writes outside are then not tracked
  std::string containment;    // how the agent's process tree was held (AgentRecord::containment)
  bool agent_network = true;  // the plan's network policy for the agent
  std::string agent_log, agent_prompt;  // relative to the run folder
  int audit_findings = 0;
  bool audit_passed = true;         // the audit gate (`gate audit { fail_on ... }`) was not reached
  std::vector<ShapeRecord> shapes;  // visible and held-out per-shape results

  bool operator==(const TaskOutcome&) const = default;
};

// Copies what a command agent's run did into the outcome (time, exit, status, tokens, ...).
void apply_agent_record(const AgentRecord& agent, TaskOutcome& out);

// "both pass" | "candidate regresses" | "both fail" | "candidate improves".
std::string heldout_quadrant(bool baseline_correct, bool candidate_correct);

// Correct on the visible shapes and on the held-out points (unset when held-out was not run).
std::optional<bool> correct_on_both(const TaskOutcome& t);

// AgentKernelArena's per-task score: compile fail 0, correctness fail 20, else 120 + 100*speedup.
// Visible correctness only, as AgentKernelArena computes it.
double aka_task_score(const TaskOutcome& t);

// results.json's task entry. The writer adds "aka_score" (derived); the reader ignores it.
void to_json(Json& j, const TaskOutcome& t);
void from_json(const Json& j, TaskOutcome& t);

}  // namespace kta::engine
