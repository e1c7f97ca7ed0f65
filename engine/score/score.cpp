#include "engine/score/score.h"

#include <fmt/format.h>

#include <cmath>

#include "engine/measure/bootstrap.h"
#include "engine/results/json_fields.h"

namespace kta::engine {

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
    if (correct_on_both(*t).value_or(false)) ++s.correct_heldout;
    for (auto& [p, share] : s.fast_p)
      if (measured(t->speedup) && t->speedup > p) share += 1;
    if (measured(t->speedup)) visible.push_back(t->speedup);
    if (measured(t->speedup) && t->speedup_noisy) ++s.noisy_speedups;
    if (t->inconclusive) ++s.inconclusive;
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
  if (s.heldout_evaluated > 0) {
    s.heldout_retention = static_cast<double>(retained) / s.heldout_evaluated;
    s.heldout_correctness_rate = s.correct_heldout / n;
  }
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

void to_json(Json& j, const ScoreSummary& s) {
  using json_fields::number;
  using json_fields::optional;
  Json fast = Json::object();
  for (const auto& [p, share] : s.fast_p) fast[fmt::format("{}", p)] = number(share);
  Json quadrants = Json::object();
  for (const auto& [q, n] : s.quadrants) quadrants[q] = n;
  j = Json{{"tasks", s.tasks},
           {"skipped", s.skipped},
           {"compiled", s.compiled},
           {"correct", s.correct},
           {"correctness_rate", number(s.correctness_rate)},
           {"correct_heldout", s.correct_heldout},
           {"noisy_speedups", s.noisy_speedups},
           {"inconclusive", s.inconclusive},
           {"heldout_correctness_rate", optional(s.heldout_correctness_rate)},
           {"fast_p", fast},
           {"geomean_speedup", optional(s.geomean_speedup)},
           {"geomean_speedup_over", "correct tasks"},
           {"heldout_evaluated", s.heldout_evaluated},
           {"heldout_retention", optional(s.heldout_retention)},
           {"speedup_transfer", optional(s.speedup_transfer)},
           {"quadrants", quadrants},
           {"aka_score", number(s.aka_score)}};
}

void from_json(const Json& j, ScoreSummary& s) {
  using json_fields::get;
  using json_fields::get_optional;
  s = {};
  s.tasks = get<int>(j, "tasks");
  s.skipped = get<int>(j, "skipped");
  s.compiled = get<int>(j, "compiled");
  s.correct = get<int>(j, "correct");
  s.correctness_rate = get<double>(j, "correctness_rate");
  s.correct_heldout = get<int>(j, "correct_heldout");
  s.noisy_speedups = get<int>(j, "noisy_speedups");
  s.inconclusive = get<int>(j, "inconclusive");
  s.heldout_correctness_rate = get_optional<double>(j, "heldout_correctness_rate");
  if (auto it = j.find("fast_p"); it != j.end() && it->is_object())
    for (const auto& [p, share] : it->items())
      s.fast_p[std::stod(p)] = share.is_null() ? NAN : share.get<double>();
  s.geomean_speedup = get_optional<double>(j, "geomean_speedup");
  s.heldout_evaluated = get<int>(j, "heldout_evaluated");
  s.heldout_retention = get_optional<double>(j, "heldout_retention");
  s.speedup_transfer = get_optional<double>(j, "speedup_transfer");
  s.quadrants = get<std::map<std::string, int>>(j, "quadrants");
  s.aka_score = get<double>(j, "aka_score");
}

void to_json(Json& j, const RunScore& s) {
  to_json(j, static_cast<const ScoreSummary&>(s));
  Json by_kind = Json::object();
  for (const auto& [kind, k] : s.by_kind) by_kind[kind] = k;
  j["by_kind"] = by_kind;
}

void from_json(const Json& j, RunScore& s) {
  from_json(j, static_cast<ScoreSummary&>(s));
  s.by_kind.clear();
  if (auto it = j.find("by_kind"); it != j.end() && it->is_object())
    for (const auto& [kind, k] : it->items()) s.by_kind[kind] = k.get<ScoreSummary>();
}

}  // namespace kta::engine
