// What the plan needs to know of an agent use: its kind, its label, where each of a task's
// editable files comes from, the folder a job's files live in, and which placeholders of a
// command agent name nothing. Running agents is engine/agents' business.
//
// Agents: `baseline` (the candidate is the task's baseline), `replay(dir)` (the candidate's
// editable files are read from DIR/<task name>/<file name>) and command agents (a CLI run in a
// workspace, engine/agents/agent_run.h; its editable files are taken back into
// <run>/candidates/<task>/<agent>/<repeat>/, where the later steps read them).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/plan/plan.h"
#include "lang/model.h"

namespace kta::engine {

enum class AgentKind { baseline, replay, command };

AgentKind agent_kind(const model::AgentUse& agent);
// "baseline", "replay(solutions)", "claude_code" — stable, used in step keys and reports.
std::string agent_label(const model::AgentUse& agent);

// <task>/<agent>/<repeat> with each part made safe for a file name: where a job's workspace,
// taken-back candidate and log live under the run folder.
std::filesystem::path job_path(const TaskJob& job);

// Where each editable file of `task` comes from for this agent. Replay directories are taken
// relative to `base_dir` (the plan's folder) when relative. Command agents: see bind_agents.
std::vector<CandidateFile> resolve_candidate(const model::AgentUse& agent, const model::Task& task,
                                             const std::filesystem::path& base_dir);

// The builtin agent declarations (what std.agents.baseline/replay lower to).
model::AgentUse baseline_agent();
model::AgentUse replay_agent(const std::string& dir);

// A value as a placeholder spells it: strings as they are, durations in nanoseconds as integers.
std::string placeholder_text(const model::Value& v);

// Placeholders in the agent's command, check and env that name nothing: the same rule as
// `kta check` (lang/sema_agents.cpp), for agents built in C++ or loaded without sema.
std::vector<std::string> unknown_placeholders(const model::AgentUse& agent);

}  // namespace kta::engine
