#include "engine/compare/run_results.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace kta::engine {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// results.json writes non-finite numbers as null.
double number_or_nan(const Json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? kNaN : it->get<double>();
}

std::optional<bool> opt_bool(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<bool>();
}

TaskOutcome task_of(const Json& t) {
  TaskOutcome o;
  o.task = t.at("task").get<std::string>();
  o.task_hash = t.value("task_hash", std::string());
  o.kind = t.value("kind", std::string());
  o.agent = t.value("agent", std::string());
  o.repeat = t.value("repeat", 0);
  o.compiled = t.value("compiled", false);
  o.correct = t.at("correct").get<bool>();
  o.fast_enough = t.value("fast_enough", false);
  o.audit_passed = t.value("audit_passed", true);
  o.speedup = number_or_nan(t, "speedup");
  if (auto ci = t.find("speedup_ci"); ci != t.end() && ci->is_array() && ci->size() == 2) {
    o.speedup_lo = (*ci)[0].is_null() ? kNaN : (*ci)[0].get<double>();
    o.speedup_hi = (*ci)[1].is_null() ? kNaN : (*ci)[1].get<double>();
  }
  if (auto h = t.find("heldout"); h != t.end() && h->is_object()) {
    o.baseline_heldout_correct = opt_bool(*h, "baseline_correct");
    o.heldout_correct = opt_bool(*h, "correct");
    double s = number_or_nan(*h, "speedup");
    if (!std::isnan(s)) o.heldout_speedup = s;
    if (auto q = h->find("quadrant"); q != h->end() && q->is_string())
      o.quadrant = q->get<std::string>();
  }
  o.failure_reason = t.value("failure_reason", std::string());
  o.skipped = t.value("skipped", std::string());
  o.agent_seconds = number_or_nan(t, "agent_seconds");
  o.agent_exit = t.value("agent_exit", 0);
  o.audit_findings = t.value("audit_findings", 0);
  return o;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw RunInputError(fmt::format("cannot read '{}'", p.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

RunResults parse_run(const std::string& json_text, const fs::path& origin) {
  Json doc = Json::parse(json_text, nullptr, false);
  if (doc.is_discarded())
    throw RunInputError(fmt::format("'{}' is not valid JSON", origin.string()));
  if (!doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array())
    throw RunInputError(
        fmt::format("'{}' is not a kta results.json (no \"tasks\" list)", origin.string()));
  RunResults r;
  r.file = origin;
  r.kta_version = doc.value("kta_version", std::string());
  if (auto run = doc.find("run"); run != doc.end() && run->is_object()) {
    r.plan = run->value("plan", std::string());
    r.plan_hash = run->value("plan_hash", std::string());
    r.device = run->value("device", std::string());
    r.started = run->value("started", std::string());
  }
  size_t i = 0;
  for (const Json& t : doc["tasks"]) {
    try {
      r.tasks.push_back(task_of(t));
    } catch (const Json::exception& e) {
      throw RunInputError(
          fmt::format("'{}': task entry {} is malformed: {}", origin.string(), i, e.what()));
    }
    ++i;
  }
  return r;
}

RunResults load_run(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw RunInputError(fmt::format("no run folder or results file '{}'", path.string()));
  fs::path file = path;
  if (fs::is_directory(path, ec)) {
    file = path / "results.json";
    if (!fs::exists(file, ec)) {
      if (fs::exists(path / "results.db", ec))
        throw RunInputError(
            fmt::format("'{}' has results.db but no results.json: the run did not finish; "
                        "`kta eval --resume` completes it and writes results.json",
                        path.string()));
      throw RunInputError(
          fmt::format("'{}' is not a kta run folder (no results.json)", path.string()));
    }
  }
  return parse_run(slurp(file), file);
}

}  // namespace kta::engine
