// One run of a command agent on one job: workspace, prompt, command line, sandbox, process,
// what changed, token usage, and the editable files taken back into the run folder
// (<run>/candidates/<task>/<agent>/<repeat>/), where a resumed run finds them again.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/agents/process.h"
#include "engine/agents/usage.h"
#include "engine/agents/workspace.h"
#include "engine/plan/plan.h"
#include "engine/results/step_reports.h"

namespace kta::engine {

struct AgentRunOptions {
  std::filesystem::path run_dir;
  std::filesystem::path cache_dir;  // kta's cache: hidden from a sandboxed agent
  std::string device = "cpu";
  int warp_size = 0;             // the run's warp size (0: the device's own), told in the prompt
  std::string sandbox = "auto";  // auto | on | off
  bool network = true;
  // Replaces the declaration's grace period (Settings::agent_grace_s; for tests).
  std::optional<std::chrono::nanoseconds> grace;
  // What the agent inherits (less kta's own KTA_* settings), where prompt templates and the
  // stdlib are, and the home folder whose CLI login state stays writable in the sandbox.
  std::map<std::string, std::string> environment;
  std::filesystem::path prompts_dir, stdlib_dir, home;
  // Every kta cache folder of this machine (Settings::cache_dirs): hidden from a sandboxed agent
  // with the run's own `cache_dir`.
  std::vector<std::filesystem::path> cache_dirs;
};

struct AgentRun {
  bool ran = false;  // false: the agent never started (error says why)
  std::string error;
  // It ran but failed before changing any editable file (exited non-zero, killed by a signal
  // other than the timeout's): a named agent failure, never a candidate equal to the baseline.
  std::string failure;
  ProcessResult process;
  AgentUsage usage;
  WorkspaceChanges changes;
  bool sandboxed = false;
  std::string sandbox_note;  // why there is no sandbox, when there is none
  bool network = true;
  // Relative to the run folder: the log, the prompt, and the agent's own home for this run
  // (<run>/homes/<task>/<agent>/<repeat>, where its CLI keeps configuration, sessions and logs).
  std::filesystem::path log, prompt, home;
  std::vector<std::string> notes;  // recorded, ignored events: "edited a non-editable file: ..."
  std::vector<std::filesystem::path> logins;  // copied into the home for the run, then removed
  std::string summary() const;                // one line for the prepare step's reason
};

AgentRun run_command_agent(const TaskJob& job, const std::filesystem::path& workspace,
                           const AgentRunOptions& options);

// What the prepare step records of the run.
AgentRecord agent_record(const AgentRun& run);

}  // namespace kta::engine
