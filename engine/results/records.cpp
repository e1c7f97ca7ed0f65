#include "engine/results/records.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "engine/results/json_fields.h"

namespace kta::engine {

using json_fields::get;
using json_fields::get_optional;
using json_fields::number;

const char* outcome_name(StepOutcome o) {
  switch (o) {
    case StepOutcome::ok:
      return "ok";
    case StepOutcome::fail:
      return "fail";
    case StepOutcome::skip:
      return "skip";
    case StepOutcome::error:
      return "error";
  }
  return "?";
}

std::optional<StepOutcome> parse_outcome(std::string_view s) {
  for (StepOutcome o : {StepOutcome::ok, StepOutcome::fail, StepOutcome::skip, StepOutcome::error})
    if (s == outcome_name(o)) return o;
  return std::nullopt;
}

namespace {

constexpr std::array kStepKinds = {StepKind::prepare,
                                   StepKind::baseline_compile,
                                   StepKind::candidate_compile,
                                   StepKind::visible_correctness,
                                   StepKind::visible_performance,
                                   StepKind::audit,
                                   StepKind::heldout_correctness,
                                   StepKind::heldout_performance};

}  // namespace

std::string_view step_name(StepKind kind) {
  switch (kind) {
    case StepKind::prepare:
      return "prepare";
    case StepKind::baseline_compile:
      return "baseline-compile";
    case StepKind::candidate_compile:
      return "candidate-compile";
    case StepKind::visible_correctness:
      return "correctness";
    case StepKind::visible_performance:
      return "performance";
    case StepKind::audit:
      return "audit";
    case StepKind::heldout_correctness:
      return "heldout-correctness";
    case StepKind::heldout_performance:
      return "heldout-performance";
  }
  return "?";
}

std::optional<StepKind> parse_step_kind(std::string_view name) {
  for (StepKind k : kStepKinds)
    if (name == step_name(k)) return k;
  return std::nullopt;
}

const char* point_set_name(PointSet s) { return s == PointSet::heldout ? "heldout" : "visible"; }

std::optional<PointSet> parse_point_set(std::string_view s) {
  if (s == "visible") return PointSet::visible;
  if (s == "heldout") return PointSet::heldout;
  return std::nullopt;
}

namespace {

// The report a step of `kind` writes; a step that stopped before it had anything to report wrote
// none (its JSON holds only "profile" and "unavailable").
decltype(StepPayload::report) report_from_json(const Json& j, StepKind kind) {
  bool has_report = std::any_of(j.items().begin(), j.items().end(), [](const auto& item) {
    return item.key() != "profile" && item.key() != "unavailable";
  });
  if (!has_report) return std::monostate{};
  switch (kind) {
    case StepKind::prepare:
      return j.get<PrepareReport>();
    case StepKind::baseline_compile:
    case StepKind::candidate_compile:
      return j.get<CompileReport>();
    case StepKind::visible_correctness:
    case StepKind::heldout_correctness:
      return j.get<CorrectnessReport>();
    case StepKind::visible_performance:
    case StepKind::heldout_performance:
      return j.get<PerformanceReport>();
    case StepKind::audit:
      return j.get<AuditReport>();
  }
  return std::monostate{};
}

}  // namespace

StepPayload payload_from_json(const Json& j, StepKind kind) {
  StepPayload p;
  if (!j.is_object()) return p;
  p.report = report_from_json(j, kind);
  if (auto it = j.find("profile"); it != j.end() && it->is_object())
    for (const auto& [phase, s] : it->items())
      if (s.is_number()) p.profile[phase] = s.get<double>();
  p.unavailable = get<bool>(j, "unavailable");
  return p;
}

std::string shape_text(const model::ShapePoint& p) {
  std::string out;
  for (const auto& [name, value] : p) {
    if (!out.empty()) out += ',';
    out += fmt::format("{}={}", name, value);
  }
  return out;
}

void to_json(Json& j, const Stats& s) {
  j = Json{{"n", s.n},
           {"median", number(s.median)},
           {"mean", number(s.mean)},
           {"stdev", number(s.stdev)},
           {"min", number(s.min)},
           {"max", number(s.max)},
           {"noise", number(s.noise)}};
}

void from_json(const Json& j, Stats& s) {
  s = {};
  s.n = get<int>(j, "n");
  s.median = get<double>(j, "median");
  s.mean = get<double>(j, "mean");
  s.stdev = get<double>(j, "stdev");
  s.min = get<double>(j, "min");
  s.max = get<double>(j, "max");
  s.noise = get<double>(j, "noise");
}

void to_json(Json& j, const ShapeRecord& s) {
  Json point = Json::object();
  for (const auto& [name, value] : s.point) point[name] = value;
  j = Json{{"set", point_set_name(s.set)}, {"point", point}};
  if (s.seed) j["seed"] = *s.seed;
  if (s.correct) {
    j["correct"] = *s.correct;
    j["max_abs_error"] = number(s.max_abs_error);
    j["max_rel_error"] = number(s.max_rel_error);
    j["mismatches"] = s.mismatches;
    j["first_bad_index"] = s.first_bad_index;
  }
  if (!s.reason.empty()) j["reason"] = s.reason;
  if (s.baseline) j["baseline"] = *s.baseline;
  if (s.candidate) j["candidate"] = *s.candidate;
  if (s.speedup) j["speedup"] = number(*s.speedup);
  if (s.throughput) j["bytes_per_second"] = number(*s.throughput);
  if (s.flop_rate) j["flops_per_second"] = number(*s.flop_rate);
}

void from_json(const Json& j, ShapeRecord& s) {
  s = {};
  s.set = parse_point_set(get<std::string>(j, "set", "visible")).value_or(PointSet::visible);
  if (auto it = j.find("point"); it != j.end() && it->is_object())
    for (const auto& [name, value] : it->items()) s.point.emplace_back(name, value.get<int64_t>());
  s.seed = get_optional<uint64_t>(j, "seed");
  s.correct = get_optional<bool>(j, "correct");
  s.max_abs_error = get<double>(j, "max_abs_error");
  s.max_rel_error = get<double>(j, "max_rel_error");
  s.mismatches = get<uint64_t>(j, "mismatches");
  s.first_bad_index = get<int64_t>(j, "first_bad_index", -1);
  s.reason = get<std::string>(j, "reason");
  s.baseline = get_optional<Stats>(j, "baseline");
  s.candidate = get_optional<Stats>(j, "candidate");
  s.speedup = get_optional<double>(j, "speedup");
  s.throughput = get_optional<double>(j, "bytes_per_second");
  s.flop_rate = get_optional<double>(j, "flops_per_second");
}

}  // namespace kta::engine
