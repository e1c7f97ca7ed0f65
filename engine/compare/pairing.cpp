#include "engine/compare/pairing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace kta::engine {

namespace {

using Key = std::pair<std::string, std::string>;  // (task, agent or "")

std::set<std::string> agents_of(const std::vector<const TaskOutcome*>& tasks) {
  std::set<std::string> s;
  for (const TaskOutcome* t : tasks) s.insert(t->agent);
  return s;
}

std::vector<const TaskOutcome*> select(const RunResults& run, const std::string& agent,
                                       const char* side) {
  std::vector<const TaskOutcome*> out;
  for (const TaskOutcome& t : run.tasks)
    if (agent.empty() || t.agent == agent) out.push_back(&t);
  if (run.tasks.empty())
    throw RunInputError(fmt::format("run {} ('{}') has no tasks", side, run.file.string()));
  if (out.empty()) {
    std::vector<const TaskOutcome*> all;
    for (const TaskOutcome& t : run.tasks) all.push_back(&t);
    throw RunInputError(fmt::format("run {} has no agent '{}' (it has: {})", side, agent,
                                    fmt::join(agents_of(all), ", ")));
  }
  return out;
}

bool measured(double s) { return std::isfinite(s) && s > 0; }

UnitSide summarize(const std::vector<const TaskOutcome*>& repeats) {
  UnitSide u;
  u.agent = repeats.front()->agent;
  u.task_hash = repeats.front()->task_hash;
  double log_sum = 0;
  int speedups = 0;
  for (const TaskOutcome* t : repeats) {
    ++u.repeats;
    u.compiled += t->compiled;
    u.aka_score += aka_task_score(*t);
    if (u.reason.empty()) u.reason = t->failure_reason;
    if (t->task_hash != u.task_hash) u.task_hash.clear();  // inconsistent: treat as unknown
    if (repeats.size() == 1) u.quadrant = t->quadrant;
    if (!t->correct) continue;
    ++u.correct;
    if (measured(t->speedup)) {
      log_sum += std::log(t->speedup);
      ++speedups;
    }
    if (t->heldout_correct) {
      ++u.heldout_evaluated;
      u.heldout_retained += *t->heldout_correct;
    }
  }
  u.aka_score /= u.repeats;
  if (speedups > 0) u.log_speedup = log_sum / speedups;
  return u;
}

// A run's units: evaluated ones summarized; units whose every repeat was skipped, with the
// reason, apart (a skipped repeat next to evaluated ones is left out of the summary).
struct Units {
  std::map<Key, UnitSide> evaluated;
  std::map<Key, std::pair<std::string, std::string>> skipped;  // key -> (agent, reason)
};

Units units(const std::vector<const TaskOutcome*>& tasks, bool by_agent) {
  std::map<Key, std::vector<const TaskOutcome*>> groups;
  Units out;
  for (const TaskOutcome* t : tasks) {
    Key key{t->task, by_agent ? t->agent : ""};
    if (t->skipped.empty())
      groups[key].push_back(t);
    else
      out.skipped.emplace(key, std::pair{t->agent, t->skipped});
  }
  for (const auto& [key, repeats] : groups) {
    out.evaluated[key] = summarize(repeats);
    out.skipped.erase(key);
  }
  return out;
}

bool has(const Units& u, const Key& k) { return u.evaluated.count(k) || u.skipped.count(k); }

}  // namespace

std::optional<double> UnitSide::speedup() const {
  if (!log_speedup) return std::nullopt;
  return std::exp(*log_speedup);
}

bool PairedTask::changed() const {
  return !a.task_hash.empty() && !b.task_hash.empty() && a.task_hash != b.task_hash;
}

Pairing pair_runs(const RunResults& a, const RunResults& b, const std::string& agent_a,
                  const std::string& agent_b) {
  auto ta = select(a, agent_a, "A");
  auto tb = select(b, agent_b, "B");
  auto sa = agents_of(ta), sb = agents_of(tb);
  Pairing p;
  p.agents_a.assign(sa.begin(), sa.end());
  p.agents_b.assign(sb.begin(), sb.end());
  if (sa == sb) {
    p.by_agent = true;
  } else if (sa.size() != 1 || sb.size() != 1) {
    throw RunInputError(fmt::format(
        "the runs have different agents (A: {}; B: {}): pick one from each with --agent-a and "
        "--agent-b",
        fmt::join(sa, ", "), fmt::join(sb, ", ")));
  }
  Units ua = units(ta, p.by_agent), ub = units(tb, p.by_agent);
  for (const auto& [key, side] : ua.evaluated) {
    auto it = ub.evaluated.find(key);
    if (it != ub.evaluated.end()) {
      PairedTask t{key.first, key.second, side, it->second};
      if (t.a.task_hash.empty() || t.b.task_hash.empty()) p.hashes_known = false;
      p.paired.push_back(std::move(t));
    } else if (auto s = ub.skipped.find(key); s != ub.skipped.end()) {
      p.skipped.push_back({key.first, side.agent, "skipped in B: " + s->second.second});
    } else {
      p.only_a.push_back({key.first, side.agent, ""});
    }
  }
  for (const auto& [key, agent_reason] : ua.skipped) {
    const auto& [agent, reason] = agent_reason;
    if (ub.evaluated.count(key))
      p.skipped.push_back({key.first, agent, "skipped in A: " + reason});
    else if (ub.skipped.count(key))
      p.skipped.push_back({key.first, agent, "skipped in both: " + reason});
    else
      p.only_a.push_back({key.first, agent, ""});
  }
  for (const auto& [key, side] : ub.evaluated)
    if (!has(ua, key)) p.only_b.push_back({key.first, side.agent, ""});
  for (const auto& [key, agent_reason] : ub.skipped)
    if (!has(ua, key)) p.only_b.push_back({key.first, agent_reason.first, ""});
  auto by_name = [](const UnpairedTask& x, const UnpairedTask& y) {
    return std::tie(x.task, x.agent) < std::tie(y.task, y.agent);
  };
  std::sort(p.only_a.begin(), p.only_a.end(), by_name);
  std::sort(p.only_b.begin(), p.only_b.end(), by_name);
  std::sort(p.skipped.begin(), p.skipped.end(), by_name);
  return p;
}

}  // namespace kta::engine
