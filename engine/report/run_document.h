// results.json: the documented export of a finished run, written by `kta eval` and read by
// `kta compare` (and any other tool) through this one to_json/from_json pair.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/results/records.h"
#include "engine/results/task_outcome.h"
#include "engine/score/score.h"

namespace kta::engine {

struct RunDocument {
  std::string kta_version;
  std::string plan, plan_hash, device, started;  // the run's identity; never its secret
  int warp_size = 0;                             // 0: not recorded (an older results.json)
  RunScore score;
  std::vector<TaskOutcome> tasks;
  bool operator==(const RunDocument&) const = default;
};

// The document for a run; the secret stays behind.
RunDocument make_run_document(const RunInfo& run, std::vector<TaskOutcome> tasks,
                              const RunScore& score);

void to_json(Json& j, const RunDocument& d);
void from_json(const Json& j, RunDocument& d);

// A document that is not a kta results.json; the message says what is wrong.
struct RunDocumentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses results.json text; `origin` names it in messages. Throws RunDocumentError.
RunDocument parse_run_document(const std::string& text, const std::filesystem::path& origin);

}  // namespace kta::engine
