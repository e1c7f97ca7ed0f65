// The evaluation plan: what `kta eval` will do, compiled from the checked model by a linear
// script of passes (engine/plan/compile.h) before anything runs. A plan is plain data: it can be
// printed (`explain`), dumped after each pass (`--debug-passes`) and content-hashed.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/results/records.h"
#include "lang/model.h"

namespace kta::engine {

// "hip2hip", "triton2triton", "torch2hip": as tasks spell their kind.
const char* kind_name(model::TaskKind kind);

// One step of one job, with the content hash of everything its result depends on.
struct PlanStep {
  StepKind kind = StepKind::prepare;
  std::string key;
};

// Where one editable file of the candidate comes from.
struct CandidateFile {
  std::filesystem::path editable;  // the task's file (absolute), e.g. .../gelu/gelu.hip
  std::filesystem::path source;    // where the agent's version is read from
  bool found = true;               // false: no solution, the baseline file is used
};

// One unit of work: one task evaluated for one agent and one repeat.
struct TaskJob {
  model::Task task;  // a copy with the run's overrides applied
  model::AgentUse agent;
  std::string agent_label;  // "baseline", "replay(solutions)"
  int repeat = 0;
  int seeds = 3;
  std::vector<model::ShapePoint> visible;
  // Held-out points: derived from the run secret; never printed, logged or exported.
  std::vector<model::ShapePoint> heldout;
  bool heldout_enabled = true;
  std::vector<CandidateFile> candidate;
  std::string candidate_hash;  // hash of the candidate files' contents
  std::vector<PlanStep> steps;
  std::string id() const;  // "gelu/baseline/0"
};

struct Plan {
  std::string name;
  std::filesystem::path file;
  std::filesystem::path output;  // the run folder
  std::string device;            // resolved device spec ("cpu", "hip:0")
  int warp_size = 0;             // 32 or 64; 0: the device's own (hip without a request)
  bool heldout = true;
  bool quick = false;
  std::string sandbox = "auto";  // command agents: auto | on | off (bubblewrap)
  bool network = true;           // command agents may use the network
  std::vector<TaskJob> jobs;
  std::string hash;  // hash of every step key, in order
};

// Options of one compilation; the CLI fills them from flags.
struct PlanOptions {
  std::vector<std::string> only;  // --only: keep these tasks (empty: all)
  std::optional<int> seeds;       // --seeds override
  bool quick = false;             // --quick: short timing for CI
  std::string device = "cpu";     // resolved device spec, part of every step key
  int warp_size = 0;              // the warp size asked for (part of every step key); 0: device's
  std::string secret;             // run secret for generated held-out points
  std::ostream* debug = nullptr;  // --debug-passes: dump the plan after each pass
};

// Prints the plan for people: jobs, steps, visible points; held-out points only as a count.
void explain(const Plan& plan, std::ostream& out);

// A pass-by-pass dump (same privacy rule as explain: held-out values never appear).
void dump_plan(const Plan& plan, std::string_view after_pass, std::ostream& out);

std::string format_point(const model::ShapePoint& point);  // "N=4096, M=8"

// The device as results depend on it: "cpu/warp32", "hip:0" (no warp size asked for). Step keys
// and the reference cache are keyed by it, so outputs of one warp size never stand for another's.
std::string device_identity(const std::string& device, int warp_size);

}  // namespace kta::engine
