// Token counts and cost from an agent's JSON event stream (its log), where the CLI reports them:
// Claude Code and Cursor `result` events, Codex `turn.completed` and `token_count` events. Best
// effort: a field the stream does not carry stays unset, never 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>

#include "engine/results/step_reports.h"

namespace kta::engine {

// Reads the stream line by line; lines that are not JSON objects are skipped.
AgentUsage parse_usage(std::istream& stream);
AgentUsage parse_usage_file(const std::filesystem::path& log);

}  // namespace kta::engine
