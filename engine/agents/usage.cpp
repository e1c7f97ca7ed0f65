#include "engine/agents/usage.h"

#include <fstream>
#include <initializer_list>
#include <string>

namespace kta::engine {

namespace {

using nlohmann::json;

std::optional<int64_t> count(const json& o, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = o.find(k);
    if (it != o.end() && it->is_number()) return it->get<int64_t>();
  }
  return std::nullopt;
}

// One usage object, in any of the spellings the CLIs use.
AgentUsage read_usage(const json& u) {
  AgentUsage a;
  a.input_tokens = count(u, {"input_tokens", "inputTokens", "prompt_tokens"});
  a.output_tokens = count(u, {"output_tokens", "outputTokens", "completion_tokens"});
  a.cache_read_tokens =
      count(u, {"cache_read_input_tokens", "cached_input_tokens", "cacheReadTokens"});
  a.cache_write_tokens = count(u, {"cache_creation_input_tokens", "cacheWriteTokens"});
  return a;
}

void add(std::optional<int64_t>& into, const std::optional<int64_t>& v) {
  if (v) into = into.value_or(0) + *v;
}

std::optional<double> cost(const json& e) {
  for (const char* k : {"total_cost_usd", "cost_usd"}) {
    auto it = e.find(k);
    if (it != e.end() && it->is_number()) return it->get<double>();
  }
  return std::nullopt;
}

}  // namespace

AgentUsage parse_usage(std::istream& stream) {
  AgentUsage total;  // final totals (result events, cumulative token_count)
  AgentUsage turns;  // per-turn usage to sum (codex turn.completed)
  bool have_total = false, have_turns = false;
  std::string line;
  while (std::getline(stream, line)) {
    if (line.empty() || line[0] != '{') continue;
    json e = json::parse(line, nullptr, false);
    if (e.is_discarded() || !e.is_object()) continue;
    std::string type = e.value("type", "");
    if (type == "result" && e.contains("usage") && e["usage"].is_object()) {
      total = read_usage(e["usage"]);
      total.cost_usd = cost(e);
      have_total = true;
    } else if (type == "result" && cost(e)) {
      total.cost_usd = cost(e);
      have_total = true;
    } else if (type == "turn.completed" && e.contains("usage") && e["usage"].is_object()) {
      AgentUsage u = read_usage(e["usage"]);
      add(turns.input_tokens, u.input_tokens);
      add(turns.output_tokens, u.output_tokens);
      add(turns.cache_read_tokens, u.cache_read_tokens);
      add(turns.cache_write_tokens, u.cache_write_tokens);
      have_turns = true;
    } else if (e.contains("msg") && e["msg"].is_object() &&
               e["msg"].value("type", "") == "token_count") {
      const json& m = e["msg"];
      if (m.contains("info") && m["info"].is_object() && m["info"].contains("total_token_usage"))
        total = read_usage(m["info"]["total_token_usage"]);
      else
        total = read_usage(m);
      have_total = true;
    }
  }
  if (have_total) return total;
  if (have_turns) return turns;
  return {};
}

AgentUsage parse_usage_file(const std::filesystem::path& log) {
  std::ifstream in(log);
  if (!in) return {};
  return parse_usage(in);
}

}  // namespace kta::engine
