// One finished run as `kta compare` reads it: the run's identity and its per-task outcomes,
// loaded from the run's results.json. results.json is the documented, stable export and holds
// everything a comparison needs; results.db would need the plan to rebuild outcomes from steps.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/results/task_outcome.h"

namespace kta::engine {

// A run that cannot be compared: missing, unreadable, or not a kta results.json. The message
// names the path and says what is wrong.
struct RunInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunResults {
  std::filesystem::path file;  // the results.json read
  std::string plan, plan_hash, device, started, kta_version;
  std::vector<TaskOutcome> tasks;
};

// `path` is a run folder (its results.json is read) or a results.json file itself.
RunResults load_run(const std::filesystem::path& path);

// The same from results.json text; `origin` names it in messages.
RunResults parse_run(const std::string& json_text, const std::filesystem::path& origin);

}  // namespace kta::engine
