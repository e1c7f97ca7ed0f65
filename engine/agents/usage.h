// Token counts and cost from an agent's JSON event stream (its log), where the CLI reports them:
// Claude Code and Cursor `result` events, Codex `turn.completed` and `token_count` events. Best
// effort: a field the stream does not carry stays unset, never 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>

namespace kta::engine {

struct AgentUsage {
  std::optional<int64_t> input_tokens;
  std::optional<int64_t> output_tokens;
  std::optional<int64_t> cache_read_tokens;
  std::optional<int64_t> cache_write_tokens;
  std::optional<double> cost_usd;
  bool any() const { return input_tokens || output_tokens || cost_usd; }
};

// Reads the stream line by line; lines that are not JSON objects are skipped.
AgentUsage parse_usage(std::istream& stream);
AgentUsage parse_usage_file(const std::filesystem::path& log);

// {"input_tokens": n, ...} with only the known fields.
nlohmann::json usage_json(const AgentUsage& u);
AgentUsage usage_from_json(const nlohmann::json& j);

}  // namespace kta::engine
