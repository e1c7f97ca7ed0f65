// Run-level figures from per-task outcomes: correctness rate, fast_p, geomean speedup,
// held-out retention and transfer, and AgentKernelArena's score for comparability. Failed,
// crashed and rejected tasks count in every denominator; nothing is silently dropped.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/results/task_outcome.h"

namespace kta::engine {

// Figures over a set of tasks (a run or one kind).
struct ScoreSummary {
  int tasks = 0, compiled = 0, correct = 0;
  int skipped = 0;  // not evaluated on this device; not in `tasks` nor in any other figure
  double correctness_rate = 0;  // correct / tasks (visible shapes: AgentKernelArena's figure)
  // Tasks correct on the visible shapes and on the held-out points, and their share of all tasks
  // (unset when no task ran held-out points).
  int correct_heldout = 0;
  std::optional<double> heldout_correctness_rate;
  // Speedups of correct tasks that rest on an unreliable shape (marked "~x noisy"), and tasks
  // whose performance gate was inconclusive for that reason.
  int noisy_speedups = 0, inconclusive = 0;
  std::map<double, double>
      fast_p;  // p in {0, 1, 1.5, 2}: share of ALL tasks correct && speedup > p
  std::optional<double> geomean_speedup;    // over correct tasks only; unset when none
  int heldout_evaluated = 0;                // correct visible tasks with a held-out verdict
  std::optional<double> heldout_retention;  // P(correct held-out | correct visible)
  std::optional<double> speedup_transfer;   // geomean(held-out) / geomean(visible), tasks with both
  std::map<std::string, int> quadrants;     // quadrant -> count
  double aka_score = 0;                     // mean of aka_task_score over tasks
  bool operator==(const ScoreSummary&) const = default;
};

struct RunScore : ScoreSummary {
  std::map<std::string, ScoreSummary> by_kind;
  bool operator==(const RunScore&) const = default;
};

RunScore score(std::span<const TaskOutcome> outcomes);

// results.json's "score": the run's figures with "by_kind" inside.
void to_json(Json& j, const ScoreSummary& s);
void from_json(const Json& j, ScoreSummary& s);
void to_json(Json& j, const RunScore& s);
void from_json(const Json& j, RunScore& s);

}  // namespace kta::engine
