#include "engine/results/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kta_version.h"

namespace kta::engine {

using Json = nlohmann::ordered_json;

namespace {

// Non-finite numbers become null: JSON has no NaN, and a reader must not mistake one for 0.
Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }
template <class T>
Json opt(const std::optional<T>& v) {
  if (!v) return nullptr;
  if constexpr (std::is_floating_point_v<T>)
    return number(*v);
  else
    return Json(*v);
}

Json stats_json(const Stats& s) {
  return Json{{"n", s.n},
              {"median", number(s.median)},
              {"mean", number(s.mean)},
              {"stdev", number(s.stdev)},
              {"min", number(s.min)},
              {"max", number(s.max)},
              {"noise", number(s.noise)}};
}

Json shape_json(const ShapeRecord& s) {
  Json point = Json::object();
  for (const auto& [name, value] : s.point) point[name] = value;
  Json j{{"set", s.set}, {"point", point}};
  if (s.seed) j["seed"] = *s.seed;
  if (s.correct) {
    j["correct"] = *s.correct;
    j["max_abs_error"] = number(s.max_abs_error);
    j["max_rel_error"] = number(s.max_rel_error);
    j["mismatches"] = s.mismatches;
    j["first_bad_index"] = s.first_bad_index;
  }
  if (!s.reason.empty()) j["reason"] = s.reason;
  if (s.baseline) j["baseline"] = stats_json(*s.baseline);
  if (s.candidate) j["candidate"] = stats_json(*s.candidate);
  if (s.speedup) j["speedup"] = number(*s.speedup);
  if (s.throughput) j["bytes_per_second"] = number(*s.throughput);
  if (s.flop_rate) j["flops_per_second"] = number(*s.flop_rate);
  return j;
}

Json summary_json(const ScoreSummary& s) {
  Json fast = Json::object();
  for (const auto& [p, share] : s.fast_p) fast[fmt::format("{}", p)] = number(share);
  Json quadrants = Json::object();
  for (const auto& [q, n] : s.quadrants) quadrants[q] = n;
  return Json{{"tasks", s.tasks},
              {"skipped", s.skipped},
              {"compiled", s.compiled},
              {"correct", s.correct},
              {"correctness_rate", number(s.correctness_rate)},
              {"fast_p", fast},
              {"geomean_speedup", opt(s.geomean_speedup)},
              {"geomean_speedup_over", "correct tasks"},
              {"heldout_evaluated", s.heldout_evaluated},
              {"heldout_retention", opt(s.heldout_retention)},
              {"speedup_transfer", opt(s.speedup_transfer)},
              {"quadrants", quadrants},
              {"aka_score", number(s.aka_score)}};
}

// What a command agent did (absent for the built-in agents): unknown token counts are null.
Json agent_run_json(const TaskOutcome& t) {
  return Json{{"status", t.agent_status},
              {"input_tokens", opt(t.input_tokens)},
              {"output_tokens", opt(t.output_tokens)},
              {"cost_usd", opt(t.cost_usd)},
              {"candidate_unchanged", t.candidate_unchanged},
              {"changed_files", t.changed_files},
              {"ignored_writes", t.ignored_writes},
              {"sandbox", t.sandbox},
              {"network", t.agent_network},
              {"log", t.agent_log},
              {"prompt", t.agent_prompt}};
}

Json task_json(const TaskOutcome& t) {
  Json shapes = Json::array();
  for (const ShapeRecord& s : t.shapes) shapes.push_back(shape_json(s));
  Json heldout = nullptr;
  if (t.heldout_correct || t.baseline_heldout_correct || !t.quadrant.empty())
    heldout = Json{{"baseline_correct", opt(t.baseline_heldout_correct)},
                   {"correct", opt(t.heldout_correct)},
                   {"speedup", opt(t.heldout_speedup)},
                   {"quadrant", t.quadrant.empty() ? Json(nullptr) : Json(t.quadrant)}};
  Json j{{"task", t.task},
         {"task_hash", t.task_hash},
         {"kind", t.kind},
         {"agent", t.agent},
         {"repeat", t.repeat},
         {"compiled", t.compiled},
         {"correct", t.correct},
         {"fast_enough", t.fast_enough},
         {"audit_passed", t.audit_passed},
         {"speedup", number(t.speedup)},
         {"speedup_ci", Json::array({number(t.speedup_lo), number(t.speedup_hi)})},
         {"heldout", heldout},
         {"failure_reason", t.failure_reason},
         {"skipped", t.skipped},
         {"agent_seconds", number(t.agent_seconds)},
         {"agent_exit", t.agent_exit},
         {"audit_findings", t.audit_findings},
         {"aka_score", number(aka_task_score(t))},
         {"shapes", shapes}};
  if (!t.agent_status.empty()) j["agent_run"] = agent_run_json(t);
  return j;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + '"';
}

std::string fixed(double v, int digits) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : "-";
}
std::string speedup_text(double v) {
  return std::isfinite(v) && v > 0 ? fmt::format("{:.2f}x", v) : "-";
}
std::string percent(double v) { return std::isfinite(v) ? fmt::format("{:.1f}%", 100 * v) : "-"; }
template <class T>
std::string opt_text(const std::optional<T>& v, std::string (*f)(double)) {
  return v ? f(*v) : "-";
}

std::string task_status(const TaskOutcome& t) {
  if (!t.skipped.empty()) return "skipped";
  if (!t.compiled) return "compile fail";
  if (!t.correct) return "incorrect";
  if (!t.fast_enough) return "too slow";
  if (!t.audit_passed) return "audit fail";
  return "pass";
}

std::vector<std::vector<std::string>> task_rows(std::span<const TaskOutcome> outcomes) {
  std::vector<std::vector<std::string>> rows;
  for (const TaskOutcome& t : outcomes) {
    std::string ci = t.correct && t.speedup > 0
                         ? fmt::format("[{:.2f}, {:.2f}]", t.speedup_lo, t.speedup_hi)
                         : "-";
    std::string heldout = t.quadrant.empty() ? "-" : t.quadrant;
    rows.push_back({t.task, t.agent, std::to_string(t.repeat), task_status(t),
                    t.correct ? speedup_text(t.speedup) : "-", ci, heldout,
                    t.failure_reason.empty() ? "" : t.failure_reason});
  }
  return rows;
}

const std::vector<std::string> kTaskHeader = {"task",    "agent",  "rep",      "status",
                                              "speedup", "95% CI", "held-out", "reason"};

const std::vector<std::string> kAgentHeader = {
    "task",          "rep",  "agent status", "time",           "input tokens",
    "output tokens", "cost", "candidate",    "ignored writes", "sandbox"};

std::vector<std::vector<std::string>> agent_rows(std::span<const TaskOutcome> outcomes) {
  std::vector<std::vector<std::string>> rows;
  auto tokens = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; };
  for (const TaskOutcome& t : outcomes) {
    if (t.agent_status.empty()) continue;
    std::string changed = "unchanged";
    if (!t.candidate_unchanged) {
      changed.clear();
      for (const auto& f : t.changed_files) changed += (changed.empty() ? "" : ", ") + f;
      if (changed.empty()) changed = "changed";
    }
    std::string ignored;
    for (const auto& w : t.ignored_writes) ignored += (ignored.empty() ? "" : "; ") + w;
    rows.push_back({t.task, std::to_string(t.repeat), t.agent_status,
                    fixed(t.agent_seconds, 1) + "s", tokens(t.input_tokens),
                    tokens(t.output_tokens), t.cost_usd ? fmt::format("${:.2f}", *t.cost_usd) : "-",
                    changed, ignored.empty() ? "-" : ignored, t.sandbox});
  }
  return rows;
}

std::vector<std::string> agent_names(std::span<const TaskOutcome> outcomes) {
  std::vector<std::string> names;
  for (const TaskOutcome& t : outcomes)
    if (std::find(names.begin(), names.end(), t.agent) == names.end()) names.push_back(t.agent);
  return names;
}

bool any_command_agent(std::span<const TaskOutcome> outcomes) {
  return std::any_of(outcomes.begin(), outcomes.end(),
                     [](const TaskOutcome& t) { return !t.agent_status.empty(); });
}

std::vector<TaskOutcome> of_agent(std::span<const TaskOutcome> outcomes, const std::string& agent) {
  std::vector<TaskOutcome> sub;
  for (const TaskOutcome& t : outcomes)
    if (t.agent == agent) sub.push_back(t);
  return sub;
}

std::vector<std::vector<std::string>> figure_rows(const ScoreSummary& s);
std::string md_table(const std::vector<std::string>& header,
                     const std::vector<std::vector<std::string>>& rows);

// One section per agent when the plan ran several, or a command agent: the same tasks, each
// agent with its own task table, what its runs did, and its own figures.
std::string agent_sections_md(std::span<const TaskOutcome> outcomes) {
  std::vector<std::string> names = agent_names(outcomes);
  if (names.size() < 2 && !any_command_agent(outcomes)) return "";
  std::string out;
  for (const auto& name : names) {
    std::vector<TaskOutcome> sub = of_agent(outcomes, name);
    out += "\n## Agent: " + name + "\n\n" + md_table(kTaskHeader, task_rows(sub));
    if (any_command_agent(sub)) out += "\n" + md_table(kAgentHeader, agent_rows(sub));
    out += "\n" + md_table({"figure", "value"}, figure_rows(score(sub)));
  }
  return out;
}

std::vector<std::vector<std::string>> figure_rows(const ScoreSummary& s) {
  std::vector<std::vector<std::string>> rows = {
      {"tasks", std::to_string(s.tasks)},
      {"compiled", std::to_string(s.compiled)},
      {"correct", fmt::format("{} ({})", s.correct, percent(s.correctness_rate))},
  };
  for (const auto& [p, share] : s.fast_p)
    rows.push_back({fmt::format("fast_{}", p), percent(share)});
  rows.push_back({"geomean speedup (correct tasks)", opt_text(s.geomean_speedup, speedup_text)});
  rows.push_back({"held-out retention",
                  s.heldout_retention
                      ? fmt::format("{} ({} of {})", percent(*s.heldout_retention),
                                    std::lround(*s.heldout_retention * s.heldout_evaluated),
                                    s.heldout_evaluated)
                      : "-"});
  rows.push_back(
      {"speedup transfer", opt_text(
                               s.speedup_transfer, +[](double v) { return fixed(v, 2); })});
  rows.push_back({"AgentKernelArena score", fixed(s.aka_score, 1)});
  return rows;
}

// Display width: code points, so "µs" and "×" count as one column each.
size_t width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool numeric_looking(const std::string& s) {
  if (s.empty() || s == "-") return false;
  size_t digits = 0;
  for (char c : s) {
    if (c >= '0' && c <= '9')
      ++digits;
    else if (std::string_view(".,+-x%eE[] ()").find(c) == std::string_view::npos)
      return false;
  }
  return digits > 0;
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string md_table(const std::vector<std::string>& header,
                     const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  for (const auto& h : header) out += " " + md_cell(h) + " |";
  out += "\n|";
  for (size_t i = 0; i < header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) {
    out += "|";
    for (const auto& c : r) out += " " + md_cell(c) + " |";
    out += "\n";
  }
  return out;
}

}  // namespace

std::string results_json_text(const RunInfo& run, std::span<const TaskOutcome> outcomes,
                              const RunScore& score) {
  Json by_kind = Json::object();
  for (const auto& [kind, s] : score.by_kind) by_kind[kind] = summary_json(s);
  Json summary = summary_json(score);
  summary["by_kind"] = by_kind;
  Json tasks = Json::array();
  for (const TaskOutcome& t : outcomes) tasks.push_back(task_json(t));
  Json doc{{"kta_version", run.kta_version.empty() ? std::string(KTA_VERSION) : run.kta_version},
           {"run", Json{{"plan", run.plan_name},
                        {"plan_hash", run.plan_hash},
                        {"device", run.device},
                        {"started", run.started}}},
           {"score", summary},
           {"tasks", tasks}};
  return doc.dump(2) + "\n";
}

void write_results_json(const std::filesystem::path& path, const RunInfo& run,
                        std::span<const TaskOutcome> outcomes, const RunScore& score) {
  write_file(path, results_json_text(run, outcomes, score));
}

void write_results_csv(const std::filesystem::path& path, std::span<const TaskOutcome> outcomes) {
  std::string out =
      "task,kind,agent,repeat,compiled,correct,fast_enough,speedup,speedup_lo,speedup_hi,"
      "heldout_baseline_correct,heldout_correct,heldout_speedup,quadrant,aka_score,agent_seconds,"
      "agent_exit,agent_status,input_tokens,output_tokens,cost_usd,audit_findings,skipped,"
      "failure_reason\n";
  auto b = [](const std::optional<bool>& v) { return v ? std::string(*v ? "true" : "false") : ""; };
  auto num = [](double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string(); };
  for (const TaskOutcome& t : outcomes) {
    auto count = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : ""; };
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                       csv_cell(t.task), csv_cell(t.kind), csv_cell(t.agent), t.repeat, t.compiled,
                       t.correct, t.fast_enough, num(t.speedup), num(t.speedup_lo),
                       num(t.speedup_hi), b(t.baseline_heldout_correct), b(t.heldout_correct),
                       t.heldout_speedup ? num(*t.heldout_speedup) : "", csv_cell(t.quadrant),
                       num(aka_task_score(t)), num(t.agent_seconds), t.agent_exit,
                       csv_cell(t.agent_status), count(t.input_tokens), count(t.output_tokens),
                       t.cost_usd ? num(*t.cost_usd) : "", t.audit_findings, csv_cell(t.skipped),
                       csv_cell(t.failure_reason));
  }
  write_file(path, out);
}

void write_summary_md(const std::filesystem::path& path, const RunInfo& run,
                      std::span<const TaskOutcome> outcomes, const RunScore& score) {
  std::string out =
      fmt::format("# kta run: {}\n\n", run.plan_name.empty() ? "(unnamed)" : run.plan_name);
  out += fmt::format("- device: {}\n- started: {}\n- plan hash: `{}`\n- kta {}\n\n", run.device,
                     run.started, run.plan_hash,
                     run.kta_version.empty() ? std::string(KTA_VERSION) : run.kta_version);
  out += "## Tasks\n\n" + md_table(kTaskHeader, task_rows(outcomes));
  out += "\n## Run\n\n" + md_table({"figure", "value"}, figure_rows(score));
  out += agent_sections_md(outcomes);
  if (!score.by_kind.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [kind, s] : score.by_kind)
      rows.push_back({kind, std::to_string(s.tasks), percent(s.correctness_rate),
                      opt_text(s.geomean_speedup, speedup_text),
                      opt_text(s.heldout_retention, percent),
                      opt_text(
                          s.speedup_transfer, +[](double v) { return fixed(v, 2); }),
                      fixed(s.aka_score, 1)});
    out += "\n## By kind\n\n" + md_table({"kind", "tasks", "correct", "geomean speedup",
                                          "held-out retention", "speedup transfer", "AKA score"},
                                         rows);
  }
  out +=
      "\nSpeedups are geometric means over visible shapes; the run's geomean is over correct "
      "tasks only. Failed and crashed tasks count in every rate.\n";
  write_file(path, out);
}

std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
  size_t cols = header.size();
  for (const auto& r : rows) cols = std::max(cols, r.size());
  std::vector<size_t> w(cols, 0);
  std::vector<bool> right(cols, true);
  for (size_t c = 0; c < header.size(); ++c) w[c] = width(header[c]);
  std::vector<bool> any(cols, false);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) {
      w[c] = std::max(w[c], width(r[c]));
      if (!r[c].empty() && r[c] != "-") {
        any[c] = true;
        if (!numeric_looking(r[c])) right[c] = false;
      }
    }
  for (size_t c = 0; c < cols; ++c) right[c] = right[c] && any[c];
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cols; ++c) {
      std::string cell = c < cells.size() ? cells[c] : "";
      std::string pad(w[c] - width(cell), ' ');
      std::string text = right[c] ? pad + cell : cell + pad;
      out += c == 0 ? text : "  " + text;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  std::string rule;
  for (size_t c = 0; c < cols; ++c) rule += (c ? "  " : "") + std::string(w[c], '-');
  out += rule + "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

std::string format_agent_tables(std::span<const TaskOutcome> outcomes) {
  std::vector<std::string> names = agent_names(outcomes);
  if (names.size() < 2 && !any_command_agent(outcomes)) return "";
  std::string out;
  for (const auto& name : names) {
    std::vector<TaskOutcome> sub = of_agent(outcomes, name);
    out += "\nagent " + name + "\n" + format_table(kTaskHeader, task_rows(sub));
    if (any_command_agent(sub)) out += format_table(kAgentHeader, agent_rows(sub));
  }
  return out;
}

std::string format_markdown_table(const std::vector<std::string>& header,
                                  const std::vector<std::vector<std::string>>& rows) {
  return md_table(header, rows);
}

std::string format_summary(std::span<const TaskOutcome> outcomes, const RunScore& score) {
  return format_table(kTaskHeader, task_rows(outcomes)) + "\n" +
         format_table({"figure", "value"}, figure_rows(score));
}

}  // namespace kta::engine
