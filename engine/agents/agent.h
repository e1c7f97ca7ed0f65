// Preparing a job's candidate: its files copied into the workspace the later steps judge.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/plan/agent_use.h"
#include "engine/plan/plan.h"
#include "lang/model.h"

namespace kta::engine {

// The outcome of preparing a candidate: its files copied into `workspace` and the entry to
// compile (the baseline's entry with the file that was replaced).
struct PreparedCandidate {
  bool ok = true;
  std::string reason;                        // "no solution, baseline used" or an error
  std::vector<std::filesystem::path> files;  // the copies in the workspace
  model::Entry entry;
};

PreparedCandidate prepare_candidate(const TaskJob& job, const std::filesystem::path& workspace);

}  // namespace kta::engine
