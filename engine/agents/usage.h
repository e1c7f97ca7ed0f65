// Token counts, cost and tool calls from an agent's JSON event stream (its log), where the CLI
// reports them: Claude Code and Cursor `result` events, Codex `turn.completed` and `token_count`
// events, Gemini CLI `result` stats; tool calls and their failures from each CLI's tool events.
// Best effort: a field the stream does not carry stays unset, never 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>

#include "engine/results/step_reports.h"

namespace kta::engine {

// Reads the stream line by line; lines that are not JSON objects are skipped.
AgentUsage parse_usage(std::istream& stream);
AgentUsage parse_usage_file(const std::filesystem::path& log);

// Dollars per million tokens, from an agent use's `price_per_mtok_in`, `_out` and `_cached`
// arguments; unset when the use has none.
struct AgentPrices {
  std::optional<double> input, output, cached;
};

// Sets usage.cost_usd (cost_computed) from `prices` when the CLI reported no cost of its own and
// the input and output prices are known; cached input tokens are billed at the cached price (the
// input price when there is none). Without token counts the cost stays unset, never 0.
void price_usage(AgentUsage& usage, const AgentPrices& prices);

}  // namespace kta::engine
