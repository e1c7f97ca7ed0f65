#include "engine/report/run_document.h"

#include <fmt/format.h>

#include "engine/results/json_fields.h"
#include "kta_version.h"

namespace kta::engine {

using json_fields::get;

RunDocument make_run_document(const RunInfo& run, std::vector<TaskOutcome> tasks,
                              const RunScore& score) {
  RunDocument d;
  d.kta_version = run.kta_version.empty() ? std::string(KTA_VERSION) : run.kta_version;
  d.plan = run.plan_name;
  d.plan_hash = run.plan_hash;
  d.device = run.device;
  d.warp_size = run.warp_size;
  d.started = run.started;
  d.score = score;
  d.tasks = std::move(tasks);
  return d;
}

void to_json(Json& j, const RunDocument& d) {
  j = Json{{"kta_version", d.kta_version},
           {"run", Json{{"plan", d.plan},
                        {"plan_hash", d.plan_hash},
                        {"device", d.device},
                        {"warp_size", d.warp_size},
                        {"started", d.started}}},
           {"score", d.score},
           {"tasks", d.tasks}};
}

void from_json(const Json& j, RunDocument& d) {
  d = {};
  d.kta_version = get<std::string>(j, "kta_version");
  if (auto run = j.find("run"); run != j.end() && run->is_object()) {
    d.plan = get<std::string>(*run, "plan");
    d.plan_hash = get<std::string>(*run, "plan_hash");
    d.device = get<std::string>(*run, "device");
    d.warp_size = get<int>(*run, "warp_size");
    d.started = get<std::string>(*run, "started");
  }
  if (auto s = j.find("score"); s != j.end() && s->is_object()) d.score = s->get<RunScore>();
  d.tasks = j.at("tasks").get<std::vector<TaskOutcome>>();
}

RunDocument parse_run_document(const std::string& text, const std::filesystem::path& origin) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded())
    throw RunDocumentError(fmt::format("'{}' is not valid JSON", origin.string()));
  if (!doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array())
    throw RunDocumentError(
        fmt::format("'{}' is not a kta results.json (no \"tasks\" list)", origin.string()));
  RunDocument d;
  try {
    from_json(doc, d);
  } catch (const Json::exception& e) {
    // Name the entry that is malformed.
    size_t i = 0;
    for (const Json& t : doc["tasks"]) {
      try {
        (void)t.get<TaskOutcome>();
      } catch (const Json::exception& entry) {
        throw RunDocumentError(
            fmt::format("'{}': task entry {} is malformed: {}", origin.string(), i, entry.what()));
      }
      ++i;
    }
    throw RunDocumentError(fmt::format("'{}' is malformed: {}", origin.string(), e.what()));
  }
  return d;
}

}  // namespace kta::engine
