#include "engine/compare/compare_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/report/export.h"

namespace kta::engine {

using Json = nlohmann::ordered_json;

namespace {

// ---- cells shared by the text and Markdown tables

std::string percent(double v) { return std::isfinite(v) ? fmt::format("{:.1f}%", 100 * v) : "-"; }
std::string signed_percent(double v) {
  return std::isfinite(v) ? fmt::format("{:+.1f}%", 100 * v) : "-";
}
std::string times(double v) { return std::isfinite(v) && v > 0 ? fmt::format("{:.2f}x", v) : "-"; }
std::string fixed1(double v) { return std::isfinite(v) ? fmt::format("{:.1f}", v) : "-"; }
std::string signed1(double v) { return std::isfinite(v) ? fmt::format("{:+.1f}", v) : "-"; }
std::string p_value(double p) { return fmt::format("{:.4g}", p); }

std::string status(const UnitSide& s) {
  if (s.repeats > 1) return fmt::format("{}/{} correct", s.correct, s.repeats);
  if (s.compiled == 0) return "compile fail";
  return s.correct ? "correct" : "incorrect";
}

std::string change(const PairedTask& t) {
  if (t.a.passes() != t.b.passes()) return t.b.passes() ? "fixed" : "broken";
  double d = t.b.correctness() - t.a.correctness();
  return d == 0 ? "" : signed_percent(d);
}

std::string heldout(const UnitSide& s) {
  if (s.repeats == 1) return s.quadrant.empty() ? "-" : s.quadrant;
  if (s.heldout_evaluated == 0) return "-";
  return fmt::format("{}/{} retained", s.heldout_retained, s.heldout_evaluated);
}

std::string speedup(const UnitSide& s) { return s.speedup() ? times(*s.speedup()) : "-"; }

std::string ratio(const PairedTask& t) {
  if (!t.a.log_speedup || !t.b.log_speedup) return "-";
  return times(std::exp(*t.b.log_speedup - *t.a.log_speedup));
}

bool show_agent(const Comparison& c) { return c.pairing.by_agent && c.pairing.agents_a.size() > 1; }

std::vector<std::string> task_header(const Comparison& c, bool with_reasons) {
  std::vector<std::string> h = {"task"};
  if (show_agent(c)) h.push_back("agent");
  for (const char* s :
       {"A", "B", "change", "speedup A", "speedup B", "B/A", "held-out A", "held-out B"})
    h.push_back(s);
  if (with_reasons) {
    h.push_back("reason A");
    h.push_back("reason B");
  }
  return h;
}

std::vector<std::vector<std::string>> task_rows(const Comparison& c, bool with_reasons) {
  std::vector<std::vector<std::string>> rows;
  for (const PairedTask& t : c.pairing.paired) {
    std::vector<std::string> r = {t.changed() ? t.task + " *" : t.task};
    if (show_agent(c)) r.push_back(t.agent);
    for (std::string s : {status(t.a), status(t.b), change(t), speedup(t.a), speedup(t.b), ratio(t),
                          heldout(t.a), heldout(t.b)})
      r.push_back(std::move(s));
    if (with_reasons) {
      r.push_back(t.a.reason);
      r.push_back(t.b.reason);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string ci(const Interval& i, std::string (*f)(double)) {
  return std::isfinite(i.lo) ? fmt::format("[{}, {}]", f(i.lo), f(i.hi)) : "-";
}
std::string opt(const std::optional<double>& v, std::string (*f)(double)) {
  return v ? f(*v) : "-";
}

const std::vector<std::string> kFigureHeader = {"figure",     "A",      "B",
                                                "difference", "95% CI", "paired n"};

std::vector<std::vector<std::string>> figure_rows(const Comparison& c) {
  const PairedFigure &k = c.correctness, &s = c.speedup, &r = c.retention, &a = c.aka_score;
  auto n = [](const PairedFigure& f) { return std::to_string(f.n); };
  return {
      {"correctness rate", opt(k.a, percent), opt(k.b, percent), signed_percent(k.diff.estimate),
       ci(k.diff, signed_percent), n(k)},
      {"geomean speedup (B/A: tasks correct in both)", opt(s.a, times), opt(s.b, times),
       s.has_diff() ? times(s.diff.estimate) : "-", ci(s.diff, times), n(s)},
      {"held-out retention", opt(r.a, percent), opt(r.b, percent),
       r.has_diff() ? signed_percent(r.diff.estimate) : "-", ci(r.diff, signed_percent), n(r)},
      {"AgentKernelArena score", opt(a.a, fixed1), opt(a.b, fixed1), signed1(a.diff.estimate),
       ci(a.diff, signed1), n(a)},
  };
}

std::string test_lines(const Comparison& c) {
  const McNemar& m = c.correctness_test;
  const SignTest& s = c.speedup_test;
  std::string pass = c.single_repeat ? "correct" : "correct in most repeats";
  return fmt::format(
      "correctness, exact McNemar test ({}): both {}, A only {}, B only {}, neither {}; p = {}\n"
      "speedup, exact sign test (tasks correct in both): B faster {}, A faster {}, ties {}; p = "
      "{}\n",
      pass, m.both, m.a_only, m.b_only, m.neither, p_value(m.p), s.plus, s.minus, s.ties,
      p_value(s.p));
}

std::string side_line(const char* name, const RunResults& r,
                      const std::vector<std::string>& agents) {
  return fmt::format("{}: {} (plan {}, device {}, agent{} {})\n", name, r.file.string(),
                     r.plan.empty() ? "-" : r.plan, r.device.empty() ? "-" : r.device,
                     agents.size() == 1 ? "" : "s", fmt::join(agents, ", "));
}

std::string pairing_line(const Comparison& c) {
  const Pairing& p = c.pairing;
  std::string skipped = p.skipped.empty() ? "" : fmt::format(", {} skipped", p.skipped.size());
  return fmt::format("paired by {}: {} paired, {} only in A, {} only in B{}\n",
                     p.by_agent ? "task and agent" : "task (each run has one agent)",
                     p.paired.size(), p.only_a.size(), p.only_b.size(), skipped);
}

std::vector<std::string> notes(const Comparison& c) {
  std::vector<std::string> out;
  int changed = 0;
  for (const PairedTask& t : c.pairing.paired) changed += t.changed();
  if (changed)
    out.push_back(fmt::format("* {} task{} changed between the runs (content hash differs)",
                              changed, changed == 1 ? "" : "s"));
  if (!c.pairing.hashes_known)
    out.push_back("task content hashes missing in a run: changed tasks cannot be flagged");
  if (c.run_a.device != c.run_b.device)
    out.push_back(
        fmt::format("the runs used different devices ({} and {}): speedups are each "
                    "relative to their own baseline",
                    c.run_a.device, c.run_b.device));
  if (!c.single_repeat)
    out.push_back(
        "repeats: per task, correctness is the mean over repeats and speedup the "
        "geomean over correct repeats");
  return out;
}

std::string unpaired_list(const std::vector<UnpairedTask>& v) {
  std::vector<std::string> names;
  for (const UnpairedTask& t : v)
    names.push_back(t.agent.empty() ? t.task : t.task + " (" + t.agent + ")");
  return fmt::format("{}", fmt::join(names, ", "));
}

// Tasks not compared because a run skipped them, one line each with the reason.
std::string skipped_lines(const std::vector<UnpairedTask>& v, const char* indent) {
  std::string out;
  for (const UnpairedTask& t : v) out += fmt::format("{}{}  {}\n", indent, t.task, t.why);
  return out;
}

// ---- JSON

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }
Json opt_json(const std::optional<double>& v) { return v ? number(*v) : Json(nullptr); }

Json side_json(const UnitSide& s) {
  return Json{{"agent", s.agent},
              {"task_hash", s.task_hash.empty() ? Json(nullptr) : Json(s.task_hash)},
              {"repeats", s.repeats},
              {"compiled", s.compiled},
              {"correct", s.correct},
              {"correctness", number(s.correctness())},
              {"passes", s.passes()},
              {"speedup", opt_json(s.speedup())},
              {"heldout_evaluated", s.heldout_evaluated},
              {"heldout_retained", s.heldout_retained},
              {"quadrant", s.quadrant.empty() ? Json(nullptr) : Json(s.quadrant)},
              {"aka_score", number(s.aka_score)},
              {"failure_reason", s.reason}};
}

Json figure_json(const PairedFigure& f, const char* diff_name) {
  return Json{
      {"a", opt_json(f.a)},
      {"b", opt_json(f.b)},
      {diff_name, f.has_diff() ? number(f.diff.estimate) : Json(nullptr)},
      {"ci", f.has_diff() ? Json::array({number(f.diff.lo), number(f.diff.hi)}) : Json(nullptr)},
      {"n_a", f.n_a},
      {"n_b", f.n_b},
      {"n", f.n}};
}

Json run_json(const RunResults& r, const std::vector<std::string>& agents) {
  return Json{{"file", r.file.string()}, {"plan", r.plan},       {"plan_hash", r.plan_hash},
              {"device", r.device},      {"started", r.started}, {"agents", agents}};
}

Json unpaired_json(const std::vector<UnpairedTask>& v) {
  Json out = Json::array();
  for (const UnpairedTask& t : v) {
    Json j{{"task", t.task}, {"agent", t.agent}};
    if (!t.why.empty()) j["why"] = t.why;
    out.push_back(j);
  }
  return out;
}

}  // namespace

std::string format_comparison_text(const Comparison& c) {
  std::string out = side_line("A", c.run_a, c.pairing.agents_a) +
                    side_line("B", c.run_b, c.pairing.agents_b) + pairing_line(c) + "\n";
  out += format_table(task_header(c, false), task_rows(c, false));
  std::string reasons;
  for (const PairedTask& t : c.pairing.paired) {
    std::string name = show_agent(c) ? t.task + " (" + t.agent + ")" : t.task;
    if (!t.a.reason.empty()) reasons += fmt::format("  {}  A: {}\n", name, t.a.reason);
    if (!t.b.reason.empty()) reasons += fmt::format("  {}  B: {}\n", name, t.b.reason);
  }
  if (!reasons.empty()) out += "\nreasons:\n" + reasons;
  if (!c.pairing.only_a.empty())
    out += "\nonly in A (unpaired): " + unpaired_list(c.pairing.only_a) + "\n";
  if (!c.pairing.only_b.empty())
    out += "\nonly in B (unpaired): " + unpaired_list(c.pairing.only_b) + "\n";
  if (!c.pairing.skipped.empty())
    out += "\nnot compared (skipped):\n" + skipped_lines(c.pairing.skipped, "  ");
  out += "\n" + format_table(kFigureHeader, figure_rows(c)) + "\n" + test_lines(c);
  for (const std::string& n : notes(c)) out += "note: " + n + "\n";
  out +=
      fmt::format("(paired bootstrap: {} resamples of the tasks, seed {:#x}; {:.0f}% intervals)\n",
                  c.options.resamples, c.options.seed, 100 * c.options.confidence);
  return out;
}

std::string format_comparison_md(const Comparison& c) {
  std::string out = "# kta compare\n\n";
  out += "- " + side_line("A", c.run_a, c.pairing.agents_a) + "- " +
         side_line("B", c.run_b, c.pairing.agents_b) + "- " + pairing_line(c) + "\n";
  out += "## Tasks\n\n" + format_markdown_table(task_header(c, true), task_rows(c, true));
  if (!c.pairing.only_a.empty())
    out += "\nOnly in A (unpaired): " + unpaired_list(c.pairing.only_a) + "\n";
  if (!c.pairing.only_b.empty())
    out += "\nOnly in B (unpaired): " + unpaired_list(c.pairing.only_b) + "\n";
  if (!c.pairing.skipped.empty())
    out += "\nNot compared (skipped):\n\n" + skipped_lines(c.pairing.skipped, "- ");
  out += "\n## Run\n\n" + format_markdown_table(kFigureHeader, figure_rows(c)) + "\n";
  std::string tests = test_lines(c);
  for (size_t at = 0; (at = tests.find('\n', at)) != std::string::npos && at + 1 < tests.size();
       at += 2)
    tests.insert(at, "\\");  // a Markdown hard line break
  out += tests;
  for (const std::string& n : notes(c)) out += "\nNote: " + n + "\n";
  out +=
      fmt::format("\nPaired bootstrap: {} resamples of the tasks, seed {:#x}; {:.0f}% intervals.\n",
                  c.options.resamples, c.options.seed, 100 * c.options.confidence);
  return out;
}

std::string comparison_json_text(const Comparison& c) {
  Json tasks = Json::array();
  for (const PairedTask& t : c.pairing.paired) {
    Json ratio_value = nullptr;
    if (t.a.log_speedup && t.b.log_speedup)
      ratio_value = number(std::exp(*t.b.log_speedup - *t.a.log_speedup));
    tasks.push_back(Json{{"task", t.task},
                         {"agent", t.agent.empty() ? Json(nullptr) : Json(t.agent)},
                         {"changed", t.changed()},
                         {"a", side_json(t.a)},
                         {"b", side_json(t.b)},
                         {"speedup_ratio", ratio_value}});
  }
  const McNemar& m = c.correctness_test;
  const SignTest& s = c.speedup_test;
  Json overall{{"correctness_rate", figure_json(c.correctness, "difference")},
               {"geomean_speedup", figure_json(c.speedup, "ratio")},
               {"heldout_retention", figure_json(c.retention, "difference")},
               {"aka_score", figure_json(c.aka_score, "difference")},
               {"correctness_mcnemar", Json{{"both", m.both},
                                            {"a_only", m.a_only},
                                            {"b_only", m.b_only},
                                            {"neither", m.neither},
                                            {"p", m.p}}},
               {"speedup_sign_test",
                Json{{"b_faster", s.plus}, {"a_faster", s.minus}, {"ties", s.ties}, {"p", s.p}}}};
  Json doc{{"a", run_json(c.run_a, c.pairing.agents_a)},
           {"b", run_json(c.run_b, c.pairing.agents_b)},
           {"paired_by", c.pairing.by_agent ? "task, agent" : "task"},
           {"bootstrap", Json{{"resamples", c.options.resamples},
                              {"seed", c.options.seed},
                              {"confidence", c.options.confidence}}},
           {"tasks", tasks},
           {"only_a", unpaired_json(c.pairing.only_a)},
           {"only_b", unpaired_json(c.pairing.only_b)},
           {"skipped", unpaired_json(c.pairing.skipped)},
           {"overall", overall},
           {"notes", notes(c)}};
  return doc.dump(2) + "\n";
}

}  // namespace kta::engine
