#include "engine/report/summary.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

#include "engine/report/export.h"

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
  const auto* report = std::get_if<AuditReport>(&s.audit->payload.report);
  bool gate = s.audit->outcome == StepOutcome::fail;
  // Not "clean": the analyzer could not read the code, so it judged none of it.
  if (report && !report->parse_error.empty()) return gate ? "parse error (gate)" : "parse error";
  if (s.audit->outcome == StepOutcome::error) return "error";
  std::string n = t.audit_findings == 0 ? "clean"
                                        : fmt::format("{} finding{}", t.audit_findings,
                                                      t.audit_findings == 1 ? "" : "s");
  return gate ? n + " (gate)" : n;
}

std::string speedup_cell(const TaskOutcome& t) {
  if (t.speedup <= 0 || !std::isfinite(t.speedup)) return "-";
  // A speedup resting on an unreliable shape is marked, never printed as a plain figure.
  if (t.speedup_noisy)
    return fmt::format("~{:.2f}x noisy [{:.2f}, {:.2f}]", t.speedup, t.speedup_lo, t.speedup_hi);
  return fmt::format("{:.2f}x [{:.2f}, {:.2f}]", t.speedup, t.speedup_lo, t.speedup_hi);
}

std::string short_reason(const std::string& r) {
  std::string s = r.substr(0, r.find('\n'));
  return s.size() > 70 ? s.substr(0, 67) + "..." : s;
}

}  // namespace

std::string format_run_summary(std::span<const TaskOutcome> outcomes,
                               const std::vector<StepRecord>& steps, const RunScore& score) {
  std::map<JobKey, JobSteps> by_job;
  for (const auto& s : steps) {
    auto& j = by_job[{s.task, s.agent, s.repeat}];
    j.seconds += s.wall_seconds;
    if (s.step == StepKind::audit) j.audit = &s;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : outcomes) {
    const JobSteps& js = by_job[{t.task, t.agent, t.repeat}];
    std::string agent = t.agent + (t.repeat > 0 ? fmt::format(" #{}", t.repeat) : "");
    std::string correct = !t.compiled         ? "-"
                          : !t.correct        ? "FAIL"
                          : !t.heldout_passed ? "held-out FAIL"
                                              : "ok";
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
  out += "\n" + format_table({"figure", "value"}, figure_rows(score));
  return out;
}

}  // namespace kta::engine
