#include "engine/results/step_reports.h"

#include "engine/results/json_fields.h"

namespace kta::engine {

using json_fields::get;
using json_fields::get_optional;
using json_fields::number;
using json_fields::put_if;

void to_json(Json& j, const AgentUsage& u) {
  j = Json::object();
  put_if(j, "input_tokens", u.input_tokens);
  put_if(j, "output_tokens", u.output_tokens);
  put_if(j, "cache_read_tokens", u.cache_read_tokens);
  put_if(j, "cache_write_tokens", u.cache_write_tokens);
  put_if(j, "cost_usd", u.cost_usd);
  if (u.cost_computed) j["cost_computed"] = true;
  put_if(j, "tool_calls", u.tool_calls);
  put_if(j, "failed_tool_calls", u.failed_tool_calls);
}

void from_json(const Json& j, AgentUsage& u) {
  u = {};
  if (!j.is_object()) return;
  u.input_tokens = get_optional<int64_t>(j, "input_tokens");
  u.output_tokens = get_optional<int64_t>(j, "output_tokens");
  u.cache_read_tokens = get_optional<int64_t>(j, "cache_read_tokens");
  u.cache_write_tokens = get_optional<int64_t>(j, "cache_write_tokens");
  u.cost_usd = get_optional<double>(j, "cost_usd");
  u.cost_computed = get<bool>(j, "cost_computed", false);
  u.tool_calls = get_optional<int64_t>(j, "tool_calls");
  u.failed_tool_calls = get_optional<int64_t>(j, "failed_tool_calls");
}

void to_json(Json& j, const AgentRecord& a) {
  j = Json{{"status", a.status}, {"wall_seconds", number(a.wall_seconds)}};
  if (!a.summary.empty()) j["summary"] = a.summary;
  put_if(j, "exit_code", a.exit_code);
  put_if(j, "signal", a.signal);
  j["timed_out"] = a.timed_out;
  j["tokens"] = a.tokens;
  j["changed_files"] = a.changed_files;
  j["unchanged"] = a.unchanged;
  j["ignored_writes"] = a.ignored_writes;
  j["sandbox"] = a.sandbox;
  if (!a.sandbox_note.empty()) j["sandbox_note"] = a.sandbox_note;
  j["containment"] = a.containment;
  j["swept"] = a.swept;
  j["network"] = a.network;
  j["log"] = a.log;
  j["prompt"] = a.prompt;
  if (!a.home.empty()) j["home"] = a.home;
}

void from_json(const Json& j, AgentRecord& a) {
  a.status = get<std::string>(j, "status");
  a.summary = get<std::string>(j, "summary");
  a.wall_seconds = get<double>(j, "wall_seconds");
  a.exit_code = get_optional<int>(j, "exit_code");
  a.signal = get_optional<int>(j, "signal");
  a.timed_out = get<bool>(j, "timed_out");
  a.tokens = get<AgentUsage>(j, "tokens");
  a.changed_files = get<std::vector<std::string>>(j, "changed_files");
  a.unchanged = get<bool>(j, "unchanged");
  a.ignored_writes = get<std::vector<std::string>>(j, "ignored_writes");
  a.sandbox = get<std::string>(j, "sandbox");
  a.sandbox_note = get<std::string>(j, "sandbox_note");
  a.containment = get<std::string>(j, "containment");
  a.swept = get<int>(j, "swept");
  a.network = get<bool>(j, "network", true);
  a.log = get<std::string>(j, "log");
  a.prompt = get<std::string>(j, "prompt");
  a.home = get<std::string>(j, "home");
}

void to_json(Json& j, const PrepareReport& r) {
  j = Json::object();
  if (r.agent) j["agent"] = *r.agent;
  Json files = Json::array();
  for (const auto& f : r.files) files.push_back({{"file", f.file}, {"found", f.found}});
  j["files"] = files;
  j["candidate_hash"] = r.candidate_hash;
}

void from_json(const Json& j, PrepareReport& r) {
  r.agent = get_optional<AgentRecord>(j, "agent");
  r.files.clear();
  if (auto it = j.find("files"); it != j.end() && it->is_array())
    for (const auto& f : *it)
      r.files.push_back({get<std::string>(f, "file"), get<bool>(f, "found", true)});
  r.candidate_hash = get<std::string>(j, "candidate_hash");
}

namespace {

void put_notes(Json& j, const std::vector<Note>& notes) {
  if (notes.empty()) return;
  Json out = Json::array();
  for (const auto& n : notes) out.push_back({{"name", n.name}, {"text", n.text}});
  j["notes"] = out;
}

std::vector<Note> get_notes(const Json& j) {
  std::vector<Note> out;
  if (auto it = j.find("notes"); it != j.end() && it->is_array())
    for (const auto& n : *it)
      out.push_back({get<std::string>(n, "name"), get<std::string>(n, "text")});
  return out;
}

}  // namespace

void to_json(Json& j, const CompileReport& r) {
  j = Json::object();
  if (r.device)
    j["device"] = {{"name", r.device->name},
                   {"kind", r.device->kind},
                   {"details", r.device->details},
                   {"warp_size", r.device->warp_size}};
  // A failed compile always names its log, even an empty one: the report is never `{}`, which
  // reads back as "no report".
  if (!r.device || !r.log.empty()) j["log"] = r.log;
  put_notes(j, r.notes);
}

void from_json(const Json& j, CompileReport& r) {
  r.device.reset();
  if (auto it = j.find("device"); it != j.end() && it->is_object())
    r.device = DeviceRecord{get<std::string>(*it, "name"), get<std::string>(*it, "kind"),
                            get<std::string>(*it, "details"), get<int>(*it, "warp_size")};
  r.log = get<std::string>(j, "log");
  r.notes = get_notes(j);
}

void to_json(Json& j, const CorrectnessReport& r) {
  j = Json{
      {"checked", r.checked}, {"failed", r.failed}, {"candidate_correct", r.candidate_correct}};
  put_if(j, "baseline_correct", r.baseline_correct);
  if (!r.baseline_reason.empty()) j["baseline_reason"] = r.baseline_reason;
  put_notes(j, r.notes);
}

void from_json(const Json& j, CorrectnessReport& r) {
  r.checked = get<int>(j, "checked");
  r.failed = get<int>(j, "failed");
  r.candidate_correct = get<bool>(j, "candidate_correct");
  r.baseline_correct = get_optional<bool>(j, "baseline_correct");
  r.baseline_reason = get<std::string>(j, "baseline_reason");
  r.notes = get_notes(j);
}

namespace {

Json role_clocks_json(const RoleClocks& c) {
  Json j{{"sm_median", number(c.sm_median)},
         {"sm_min", number(c.sm_min)},
         {"sm_max", number(c.sm_max)},
         {"samples", c.samples}};
  put_if(j, "mem_median", c.mem_median);
  return j;
}

RoleClocks role_clocks_of(const Json& j) {
  return RoleClocks{get<double>(j, "sm_median"), get<double>(j, "sm_min"), get<double>(j, "sm_max"),
                    get<int>(j, "samples"), get_optional<double>(j, "mem_median")};
}

Json shape_timing_json(const ShapeTiming& t) {
  Json j{{"lo", number(t.lo)},
         {"hi", number(t.hi)},
         {"rounds", t.rounds},
         {"batch", t.batch},
         {"reliable", t.reliable}};
  if (!t.unreliable.empty()) j["unreliable"] = t.unreliable;
  put_if(j, "calibration", t.calibration);
  put_if(j, "baseline_wall", t.baseline_wall);
  put_if(j, "candidate_wall", t.candidate_wall);
  return j;
}

ShapeTiming shape_timing_of(const Json& j) {
  ShapeTiming t;
  t.lo = get<double>(j, "lo", NAN);
  t.hi = get<double>(j, "hi", NAN);
  t.rounds = get<int>(j, "rounds");
  t.batch = get<int>(j, "batch", 1);
  t.reliable = get<bool>(j, "reliable", true);
  t.unreliable = get<std::string>(j, "unreliable");
  t.calibration = get_optional<double>(j, "calibration");
  t.baseline_wall = get_optional<double>(j, "baseline_wall");
  t.candidate_wall = get_optional<double>(j, "candidate_wall");
  return t;
}

constexpr GateVerdict kVerdicts[] = {GateVerdict::none, GateVerdict::pass, GateVerdict::fail,
                                     GateVerdict::inconclusive};

}  // namespace

const char* gate_verdict_name(GateVerdict v) {
  switch (v) {
    case GateVerdict::none:
      return "";
    case GateVerdict::pass:
      return "pass";
    case GateVerdict::fail:
      return "fail";
    case GateVerdict::inconclusive:
      return "inconclusive";
  }
  return "";
}

void to_json(Json& j, const PerformanceReport& r) {
  j = Json::object();
  if (r.speedup) {
    j["speedup"] = number(r.speedup->estimate);
    j["speedup_lo"] = number(r.speedup->lo);
    j["speedup_hi"] = number(r.speedup->hi);
    j["shapes"] = r.shapes;
  }
  put_if(j, "min_speedup", r.min_speedup);
  if (r.verdict != GateVerdict::none) j["verdict"] = gate_verdict_name(r.verdict);
  if (!r.clock.empty()) j["clock"] = r.clock;
  put_if(j, "shape_min", r.shape_min);
  put_if(j, "shape_max", r.shape_max);
  j["unreliable"] = r.unreliable;
  j["reliable"] = r.reliable;
  if (r.calibration)
    j["calibration"] = {
        {"offset", number(r.calibration->offset)},
        {"shapes", r.calibration->shapes},
        {"on", r.calibration->on_candidate_device ? "candidate device" : "own device"}};
  if (!r.timing.empty()) {
    Json timing = Json::array();
    for (const auto& t : r.timing) timing.push_back(shape_timing_json(t));
    j["timing"] = timing;
  }
  j["recheck_failed"] = r.recheck_failed;
  if (!r.clocks.empty()) {
    Json clocks = Json::array();
    for (const auto& c : r.clocks)
      clocks.push_back(c ? Json{{"baseline", role_clocks_json(c->baseline)},
                                {"candidate", role_clocks_json(c->candidate)}}
                         : Json(nullptr));
    j["clocks"] = clocks;
  }
  if (!r.notes.empty()) {
    Json notes = Json::array();
    for (const auto& n : r.notes) notes.push_back({{"name", n.name}, {"text", n.text}});
    j["notes"] = notes;
  }
  put_if(j, "peak_bandwidth", r.peak_bandwidth);
  if (!r.percent_of_peak.empty()) j["percent_of_peak"] = r.percent_of_peak;
}

void from_json(const Json& j, PerformanceReport& r) {
  r = {};
  if (j.contains("speedup"))
    r.speedup = SpeedupEstimate{get<double>(j, "speedup"), get<double>(j, "speedup_lo"),
                                get<double>(j, "speedup_hi")};
  r.shapes = get<int>(j, "shapes");
  r.min_speedup = get_optional<double>(j, "min_speedup");
  std::string verdict = get<std::string>(j, "verdict");
  for (GateVerdict v : kVerdicts)
    if (verdict == gate_verdict_name(v)) r.verdict = v;
  r.clock = get<std::string>(j, "clock");
  r.shape_min = get_optional<double>(j, "shape_min");
  r.shape_max = get_optional<double>(j, "shape_max");
  r.unreliable = get<int>(j, "unreliable");
  r.reliable = get<bool>(j, "reliable", true);
  if (auto it = j.find("calibration"); it != j.end() && it->is_object())
    r.calibration = TaskCalibration{get<double>(*it, "offset", 1.0), get<int>(*it, "shapes"),
                                    get<std::string>(*it, "on") == "candidate device"};
  if (auto it = j.find("timing"); it != j.end() && it->is_array())
    for (const auto& t : *it) r.timing.push_back(shape_timing_of(t));
  r.recheck_failed = get<bool>(j, "recheck_failed");
  if (auto it = j.find("clocks"); it != j.end() && it->is_array()) {
    for (const auto& c : *it) {
      if (c.is_null())
        r.clocks.emplace_back();
      else
        r.clocks.push_back(
            ShapeClocks{role_clocks_of(c.at("baseline")), role_clocks_of(c.at("candidate"))});
    }
  }
  if (auto it = j.find("notes"); it != j.end() && it->is_array())
    for (const auto& n : *it)
      r.notes.push_back({get<std::string>(n, "name"), get<std::string>(n, "text")});
  r.peak_bandwidth = get_optional<double>(j, "peak_bandwidth");
  r.percent_of_peak = get<std::vector<double>>(j, "percent_of_peak");
}

void to_json(Json& j, const AuditReport& r) {
  j = Json{{"findings", r.findings}, {"summary", r.summary}};
  if (!r.details.is_null()) j["details"] = r.details;
  if (!r.parse_error.empty()) j["parse_error"] = r.parse_error;
}

void from_json(const Json& j, AuditReport& r) {
  r.findings = get<int>(j, "findings");
  r.summary = get<std::string>(j, "summary");
  auto it = j.find("details");
  r.details = it == j.end() ? Json(nullptr) : *it;
  r.parse_error = get<std::string>(j, "parse_error");
}

Json payload_json(const StepPayload& p) {
  Json j = Json::object();
  std::visit(
      [&](const auto& report) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(report)>, std::monostate>) j = report;
      },
      p.report);
  if (!p.profile.empty()) {
    Json profile = Json::object();
    for (const auto& [phase, s] : p.profile) profile[phase] = number(s);
    j["profile"] = profile;
  }
  if (p.unavailable) j["unavailable"] = true;
  return j;
}

}  // namespace kta::engine
