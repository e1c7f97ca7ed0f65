// Pairing two runs task by task for `kta compare`. The unit of comparison is a task (and agent,
// when both runs ran the same agents); the repeats of a unit within one run are summarized
// before pairing, because repeat i of run A and repeat i of run B share nothing but a number.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/compare/run_results.h"

namespace kta::engine {

// A unit's repeats in one run, summarized.
struct UnitSide {
  std::string agent;
  std::string task_hash;  // empty when the run did not record it
  int repeats = 0;
  int compiled = 0;
  int correct = 0;                    // repeats correct on the visible shapes
  std::optional<double> log_speedup;  // mean log speedup over correct, measured repeats
  int heldout_evaluated = 0;          // correct repeats with a held-out verdict
  int heldout_retained = 0;           // of those, correct on the held-out shapes
  std::string quadrant;               // held-out quadrant of a single repeat
  double aka_score = 0;               // mean AgentKernelArena task score over repeats
  std::string reason;                 // the first failing repeat's failure reason

  double correctness() const { return repeats ? static_cast<double>(correct) / repeats : 0; }
  // Pass/fail for the binary test: correct in a majority of repeats (the only repeat's verdict).
  bool passes() const { return 2 * correct > repeats; }
  std::optional<double> speedup() const;
};

struct PairedTask {
  std::string task;
  std::string agent;  // the shared agent when pairing by (task, agent); empty when by task
  UnitSide a, b;
  // Both runs recorded a content hash and they differ: the task itself changed between runs.
  bool changed() const;
};

struct UnpairedTask {
  std::string task, agent;
  std::string why;  // "skipped in B: triton not available ..." for a skipped task; else empty
};

struct Pairing {
  bool by_agent = false;  // units are (task, agent); otherwise tasks
  std::vector<std::string> agents_a, agents_b;
  std::vector<PairedTask> paired;  // sorted by task, then agent
  std::vector<UnpairedTask> only_a, only_b;
  // In both runs but not evaluated in one or both (the device could not run it): like
  // engine/score, a skipped task enters no figure.
  std::vector<UnpairedTask> skipped;
  bool hashes_known = true;  // every paired unit has a hash on both sides
};

// Selects agents (`agent_a`/`agent_b` empty: all) and pairs the units of A and B. Throws
// RunInputError when a named agent is absent, when a run has no task left, or when the runs'
// agents differ and do not reduce to one each.
Pairing pair_runs(const RunResults& a, const RunResults& b, const std::string& agent_a,
                  const std::string& agent_b);

}  // namespace kta::engine
