#include "engine/report/summary.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

#include "engine/results/export.h"

namespace kta::engine {

namespace {

using JobKey = std::tuple<std::string, std::string, int>;

struct JobSteps {
  double seconds = 0;
  const StepRecord* audit = nullptr;
};

std::string audit_cell(const TaskOutcome& t, const JobSteps& s) {
  if (!s.audit) return "-";
  if (s.audit->outcome == StepOutcome::skip) {
    return s.audit->reason.find("not built") != std::string::npos ? "not built" : "skipped";
  }
  if (s.audit->outcome == StepOutcome::error) return "error";
  std::string n = t.audit_findings == 0 ? "clean"
                                        : fmt::format("{} finding{}", t.audit_findings,
                                                      t.audit_findings == 1 ? "" : "s");
  return s.audit->outcome == StepOutcome::fail ? n + " (gate)" : n;
}

std::string speedup_cell(const TaskOutcome& t) {
  if (t.speedup <= 0 || !std::isfinite(t.speedup)) return "-";
  return fmt::format("{:.2f}x [{:.2f}, {:.2f}]", t.speedup, t.speedup_lo, t.speedup_hi);
}

std::string short_reason(const std::string& r) {
  std::string s = r.substr(0, r.find('\n'));
  return s.size() > 70 ? s.substr(0, 67) + "..." : s;
}

std::string pct(double v) { return fmt::format("{:.1f}%", v * 100); }

std::vector<std::vector<std::string>> figures(const RunScore& s) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"tasks", std::to_string(s.tasks)});
  if (s.skipped > 0) rows.push_back({"skipped (not evaluated here)", std::to_string(s.skipped)});
  rows.push_back({"compiled", std::to_string(s.compiled)});
  rows.push_back({"correct", fmt::format("{} ({})", s.correct, pct(s.correctness_rate))});
  for (const auto& [p, share] : s.fast_p) rows.push_back({fmt::format("fast_{:g}", p), pct(share)});
  rows.push_back({"geomean speedup (correct tasks)",
                  s.geomean_speedup ? fmt::format("{:.2f}x", *s.geomean_speedup) : "-"});
  rows.push_back({"held-out retention",
                  s.heldout_retention ? fmt::format("{} ({} evaluated)", pct(*s.heldout_retention),
                                                    s.heldout_evaluated)
                                      : "-"});
  rows.push_back(
      {"speedup transfer", s.speedup_transfer ? fmt::format("{:.2f}", *s.speedup_transfer) : "-"});
  rows.push_back({"AgentKernelArena score", fmt::format("{:.1f}", s.aka_score)});
  return rows;
}

}  // namespace

std::string format_run_summary(std::span<const TaskOutcome> outcomes,
                               const std::vector<StepRecord>& steps, const RunScore& score) {
  std::map<JobKey, JobSteps> by_job;
  for (const auto& s : steps) {
    auto& j = by_job[{s.task, s.agent, s.repeat}];
    j.seconds += s.wall_seconds;
    if (s.step == "audit") j.audit = &s;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : outcomes) {
    const JobSteps& js = by_job[{t.task, t.agent, t.repeat}];
    std::string agent = t.agent + (t.repeat > 0 ? fmt::format(" #{}", t.repeat) : "");
    std::string correct = !t.compiled ? "-" : t.correct ? "ok" : "FAIL";
    if (!t.skipped.empty()) {
      rows.push_back({t.task, t.kind, agent, "SKIP", "-", "-", "-", "-",
                      fmt::format("{:.1f}s", js.seconds), short_reason("skipped: " + t.skipped)});
      continue;
    }
    rows.push_back({t.task, t.kind, agent, t.compiled ? "ok" : "FAIL", correct, speedup_cell(t),
                    t.quadrant.empty() ? "-" : t.quadrant, audit_cell(t, js),
                    fmt::format("{:.1f}s", js.seconds), short_reason(t.failure_reason)});
  }
  std::string out = format_table({"task", "kind", "agent", "compile", "correct", "speedup [95% CI]",
                                  "held-out", "audit", "time", "first failure"},
                                 rows);
  out += format_agent_tables(outcomes);
  out += "\n" + format_table({"figure", "value"}, figures(score));
  return out;
}

}  // namespace kta::engine
