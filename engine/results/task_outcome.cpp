#include "engine/results/task_outcome.h"

#include "engine/results/json_fields.h"

namespace kta::engine {

using json_fields::get;
using json_fields::get_optional;
using json_fields::number;
using json_fields::optional;

void apply_agent_record(const AgentRecord& a, TaskOutcome& out) {
  out.agent_status = a.status;
  out.agent_summary = a.summary;
  out.agent_seconds = a.wall_seconds;
  out.agent_exit = a.exit_code.value_or(a.timed_out ? -1 : 0);
  if (a.signal) out.agent_exit = -1;
  out.input_tokens = a.tokens.input_tokens;
  out.output_tokens = a.tokens.output_tokens;
  out.cost_usd = a.tokens.cost_usd;
  out.cost_computed = a.tokens.cost_computed;
  out.tool_calls = a.tokens.tool_calls;
  out.failed_tool_calls = a.tokens.failed_tool_calls;
  out.candidate_unchanged = a.unchanged;
  out.changed_files = a.changed_files;
  out.ignored_writes = a.ignored_writes;
  out.sandbox = a.sandbox;
  out.sandbox_note = a.sandbox_note;
  out.containment = a.containment;
  out.agent_network = a.network;
  out.agent_log = a.log;
  out.agent_prompt = a.prompt;
}

std::string heldout_quadrant(bool baseline_correct, bool candidate_correct) {
  if (baseline_correct) return candidate_correct ? "both pass" : "candidate regresses";
  return candidate_correct ? "candidate improves" : "both fail";
}

std::optional<bool> correct_on_both(const TaskOutcome& t) {
  if (!t.heldout_correct) return std::nullopt;
  return t.correct && *t.heldout_correct;
}

double aka_task_score(const TaskOutcome& t) {
  if (!t.compiled) return 0;
  if (!t.correct) return 20;
  return 120 + 100 * t.speedup;
}

namespace {

// What a command agent did (absent for the built-in agents): unknown token counts are null.
Json agent_run_json(const TaskOutcome& t) {
  return Json{{"status", t.agent_status},
              {"summary", t.agent_summary},
              {"input_tokens", optional(t.input_tokens)},
              {"output_tokens", optional(t.output_tokens)},
              {"cost_usd", optional(t.cost_usd)},
              {"cost_computed", t.cost_computed},
              {"tool_calls", optional(t.tool_calls)},
              {"failed_tool_calls", optional(t.failed_tool_calls)},
              {"candidate_unchanged", t.candidate_unchanged},
              {"changed_files", t.changed_files},
              {"ignored_writes", t.ignored_writes},
              {"sandbox", t.sandbox},
              {"sandbox_note", t.sandbox_note},
              {"containment", t.containment},
              {"network", t.agent_network},
              {"log", t.agent_log},
              {"prompt", t.agent_prompt}};
}

void read_agent_run(const Json& a, TaskOutcome& t) {
  t.agent_status = get<std::string>(a, "status");
  t.agent_summary = get<std::string>(a, "summary");
  t.input_tokens = get_optional<int64_t>(a, "input_tokens");
  t.output_tokens = get_optional<int64_t>(a, "output_tokens");
  t.cost_usd = get_optional<double>(a, "cost_usd");
  t.cost_computed = get<bool>(a, "cost_computed", false);
  t.tool_calls = get_optional<int64_t>(a, "tool_calls");
  t.failed_tool_calls = get_optional<int64_t>(a, "failed_tool_calls");
  t.candidate_unchanged = get<bool>(a, "candidate_unchanged");
  t.changed_files = get<std::vector<std::string>>(a, "changed_files");
  t.ignored_writes = get<std::vector<std::string>>(a, "ignored_writes");
  t.sandbox = get<std::string>(a, "sandbox");
  t.sandbox_note = get<std::string>(a, "sandbox_note");
  t.containment = get<std::string>(a, "containment");
  t.agent_network = get<bool>(a, "network", true);
  t.agent_log = get<std::string>(a, "log");
  t.agent_prompt = get<std::string>(a, "prompt");
}

Json heldout_json(const TaskOutcome& t) {
  if (!t.heldout_correct && !t.baseline_heldout_correct && t.quadrant.empty()) return nullptr;
  return Json{{"baseline_correct", optional(t.baseline_heldout_correct)},
              {"correct", optional(t.heldout_correct)},
              {"speedup", optional(t.heldout_speedup)},
              {"quadrant", t.quadrant.empty() ? Json(nullptr) : Json(t.quadrant)}};
}

void read_heldout(const Json& h, TaskOutcome& t) {
  t.baseline_heldout_correct = get_optional<bool>(h, "baseline_correct");
  t.heldout_correct = get_optional<bool>(h, "correct");
  t.heldout_speedup = get_optional<double>(h, "speedup");
  t.quadrant = get<std::string>(h, "quadrant");
}

}  // namespace

void to_json(Json& j, const TaskOutcome& t) {
  j = Json{{"task", t.task},
           {"task_hash", t.task_hash},
           {"kind", t.kind},
           {"agent", t.agent},
           {"repeat", t.repeat},
           {"compiled", t.compiled},
           {"correct", t.correct},
           // Explicit twins of `correct` (visible, AgentKernelArena's) and heldout.correct.
           {"correct_visible", t.correct},
           {"correct_heldout", optional(t.heldout_correct)},
           {"heldout_passed", t.heldout_passed},
           {"fast_enough", t.fast_enough},
           {"inconclusive", t.inconclusive},
           {"speedup_noisy", t.speedup_noisy},
           {"audit_passed", t.audit_passed},
           {"speedup", number(t.speedup)},
           {"speedup_ci", Json::array({number(t.speedup_lo), number(t.speedup_hi)})},
           {"heldout", heldout_json(t)},
           {"failure_reason", t.failure_reason},
           {"skipped", t.skipped},
           {"agent_seconds", number(t.agent_seconds)},
           {"agent_exit", t.agent_exit},
           {"audit_findings", t.audit_findings},
           {"aka_score", number(aka_task_score(t))},
           {"shapes", t.shapes}};
  if (!t.agent_status.empty()) j["agent_run"] = agent_run_json(t);
}

void from_json(const Json& j, TaskOutcome& t) {
  t = {};
  t.task = j.at("task").get<std::string>();
  t.task_hash = get<std::string>(j, "task_hash");
  t.kind = get<std::string>(j, "kind");
  t.agent = get<std::string>(j, "agent");
  t.repeat = get<int>(j, "repeat");
  t.compiled = get<bool>(j, "compiled");
  t.correct = j.at("correct").get<bool>();
  t.fast_enough = get<bool>(j, "fast_enough");
  t.inconclusive = get<bool>(j, "inconclusive");
  t.speedup_noisy = get<bool>(j, "speedup_noisy");
  t.heldout_passed = get<bool>(j, "heldout_passed", true);
  t.audit_passed = get<bool>(j, "audit_passed", true);
  t.speedup = get<double>(j, "speedup");
  if (auto ci = j.find("speedup_ci"); ci != j.end() && ci->is_array() && ci->size() == 2) {
    t.speedup_lo = (*ci)[0].is_null() ? NAN : (*ci)[0].get<double>();
    t.speedup_hi = (*ci)[1].is_null() ? NAN : (*ci)[1].get<double>();
  }
  if (auto h = j.find("heldout"); h != j.end() && h->is_object()) read_heldout(*h, t);
  t.failure_reason = get<std::string>(j, "failure_reason");
  t.skipped = get<std::string>(j, "skipped");
  t.agent_seconds = get<double>(j, "agent_seconds");
  t.agent_exit = get<int>(j, "agent_exit");
  t.audit_findings = get<int>(j, "audit_findings");
  t.shapes = get<std::vector<ShapeRecord>>(j, "shapes");
  if (auto a = j.find("agent_run"); a != j.end() && a->is_object()) read_agent_run(*a, t);
}

}  // namespace kta::engine
