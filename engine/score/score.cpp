#include "engine/score/score.h"

#include <cmath>

#include "engine/measure/bootstrap.h"

namespace kta::engine {

std::string heldout_quadrant(bool baseline_correct, bool candidate_correct) {
  if (baseline_correct) return candidate_correct ? "both pass" : "candidate regresses";
  return candidate_correct ? "candidate improves" : "both fail";
}

double aka_task_score(const TaskOutcome& t) {
  if (!t.compiled) return 0;
  if (!t.correct) return 20;
  return 120 + 100 * t.speedup;
}

namespace {

bool measured(double speedup) { return std::isfinite(speedup) && speedup > 0; }

ScoreSummary summarize_tasks(const std::vector<const TaskOutcome*>& tasks) {
  ScoreSummary s;
  s.tasks = static_cast<int>(tasks.size());
  for (double p : {0.0, 1.0, 1.5, 2.0}) s.fast_p[p] = 0;
  if (tasks.empty()) return s;

  std::vector<double> visible, transfer_visible, transfer_heldout;
  int retained = 0;
  double aka_sum = 0;
  for (const TaskOutcome* t : tasks) {
    aka_sum += aka_task_score(*t);
    if (!t->quadrant.empty()) ++s.quadrants[t->quadrant];
    if (t->compiled) ++s.compiled;
    if (!t->correct) continue;
    ++s.correct;
    for (auto& [p, share] : s.fast_p)
      if (measured(t->speedup) && t->speedup > p) share += 1;
    if (measured(t->speedup)) visible.push_back(t->speedup);
    if (t->heldout_correct) {
      ++s.heldout_evaluated;
      if (*t->heldout_correct) ++retained;
      if (*t->heldout_correct && t->heldout_speedup && measured(*t->heldout_speedup) &&
          measured(t->speedup)) {
        transfer_visible.push_back(t->speedup);
        transfer_heldout.push_back(*t->heldout_speedup);
      }
    }
  }
  double n = s.tasks;
  s.correctness_rate = s.correct / n;
  for (auto& [p, share] : s.fast_p) share /= n;
  if (!visible.empty()) s.geomean_speedup = geomean(visible);
  if (s.heldout_evaluated > 0)
    s.heldout_retention = static_cast<double>(retained) / s.heldout_evaluated;
  if (!transfer_visible.empty())
    s.speedup_transfer = geomean(transfer_heldout) / geomean(transfer_visible);
  s.aka_score = aka_sum / n;
  return s;
}

}  // namespace

RunScore score(std::span<const TaskOutcome> outcomes) {
  std::vector<const TaskOutcome*> all;
  std::map<std::string, std::vector<const TaskOutcome*>> by_kind;
  std::map<std::string, int> skipped;
  for (const TaskOutcome& t : outcomes) {
    if (!t.skipped.empty()) {
      ++skipped[t.kind];
      continue;
    }
    all.push_back(&t);
    by_kind[t.kind].push_back(&t);
  }
  RunScore r;
  static_cast<ScoreSummary&>(r) = summarize_tasks(all);
  for (const auto& [kind, tasks] : by_kind) r.by_kind[kind] = summarize_tasks(tasks);
  for (const auto& [kind, n] : skipped) {
    r.skipped += n;
    if (!r.by_kind.count(kind)) r.by_kind[kind] = summarize_tasks({});
    r.by_kind[kind].skipped = n;
  }
  return r;
}

}  // namespace kta::engine
