#include "engine/agents/agent.h"

#include <system_error>

namespace kta::engine {

namespace fs = std::filesystem;

PreparedCandidate prepare_candidate(const TaskJob& job, const fs::path& workspace) {
  PreparedCandidate out;
  out.entry = job.task.candidate;
  std::error_code ec;
  fs::create_directories(workspace, ec);
  if (ec) {
    out.ok = false;
    out.reason = "cannot create workspace " + workspace.string() + ": " + ec.message();
    return out;
  }
  int missing = 0;
  for (const auto& f : job.candidate) {
    fs::path dst = workspace / f.editable.filename();
    fs::copy_file(f.source, dst, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      out.ok = false;
      out.reason = "cannot copy " + f.source.string() + ": " + ec.message();
      return out;
    }
    if (!f.found) ++missing;
    out.files.push_back(dst);
    if (f.editable == job.task.candidate.file) out.entry.file = dst;
  }
  if (agent_kind(job.agent) == AgentKind::command) {
    // The agent's own outcome is the prepare step's reason (step_prepare.cpp).
  } else if (missing > 0 && missing == static_cast<int>(job.candidate.size())) {
    out.reason = "no solution, baseline used";
  } else if (missing > 0) {
    out.reason = std::to_string(missing) + " of " + std::to_string(job.candidate.size()) +
                 " editable files missing, baseline used for those";
  }
  return out;
}

}  // namespace kta::engine
