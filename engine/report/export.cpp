#include "engine/report/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "engine/report/run_document.h"
#include "kta_version.h"

namespace kta::engine {

namespace {

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
  if (t.inconclusive) return "inconclusive";
  if (!t.fast_enough) return "too slow";
  if (!t.audit_passed) return "audit fail";
  if (!t.heldout_passed) return "held-out fail";
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
    "task", "rep",       "agent status",   "time",    "input tokens", "output tokens",
    "cost", "candidate", "ignored writes", "sandbox", "process tree"};

// "exit 0", with the failed tool calls when the stream told of any.
std::string agent_status_cell(const TaskOutcome& t) {
  if (!t.failed_tool_calls || *t.failed_tool_calls == 0) return t.agent_status;
  return fmt::format("{}; {} of {} tool calls failed", t.agent_status, *t.failed_tool_calls,
                     t.tool_calls.value_or(*t.failed_tool_calls));
}

// The CLI's own cost; "~" marks one kta computed from the declaration's prices.
std::string cost_cell(const TaskOutcome& t) {
  if (!t.cost_usd) return "-";
  return fmt::format("{}${:.2f}", t.cost_computed ? "~" : "", *t.cost_usd);
}

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
    rows.push_back(
        {t.task, std::to_string(t.repeat), agent_status_cell(t), fixed(t.agent_seconds, 1) + "s",
         tokens(t.input_tokens), tokens(t.output_tokens), cost_cell(t), changed,
         ignored.empty() ? "-" : ignored,
         // Without the sandbox nothing outside the workspace is watched: say so.
         t.sandbox == "none" ? "none (writes outside the workspace not tracked)" : t.sandbox,
         t.containment.empty() ? "-" : t.containment});
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
  Json doc = make_run_document(run, {outcomes.begin(), outcomes.end()}, score);
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
  out += fmt::format("- device: {}{}\n- started: {}\n- plan hash: `{}`\n- kta {}\n\n", run.device,
                     run.warp_size != 0 ? fmt::format(" (warp {})", run.warp_size) : "",
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

std::vector<std::vector<std::string>> figure_rows(const ScoreSummary& s) {
  std::vector<std::vector<std::string>> rows = {
      {"tasks", std::to_string(s.tasks)},
  };
  if (s.skipped > 0) rows.push_back({"skipped (not evaluated here)", std::to_string(s.skipped)});
  rows.insert(rows.end(),
              {
                  {"compiled", std::to_string(s.compiled)},
                  {"correct", fmt::format("{} ({})", s.correct, percent(s.correctness_rate))},
                  {"correct on held-out too",
                   s.heldout_correctness_rate ? fmt::format("{} ({})", s.correct_heldout,
                                                            percent(*s.heldout_correctness_rate))
                                              : "-"},
              });
  for (const auto& [p, share] : s.fast_p)
    rows.push_back({fmt::format("fast_{}", p), percent(share)});
  rows.push_back({"unreliable speedups",
                  fmt::format("{} (gate inconclusive: {})", s.noisy_speedups, s.inconclusive)});
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

}  // namespace kta::engine
