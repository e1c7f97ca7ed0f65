#include "engine/agents/usage.h"

#include <fstream>
#include <initializer_list>
#include <set>
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

// One usage object, in any of the spellings the CLIs use. Anthropic's input_tokens leave out the
// cache reads and writes, which OpenAI's and Gemini's include: added here, so input_tokens always
// counts every prompt token (AgentUsage).
AgentUsage read_usage(const json& u) {
  AgentUsage a;
  a.input_tokens = count(u, {"input_tokens", "inputTokens", "prompt_tokens"});
  a.output_tokens = count(u, {"output_tokens", "outputTokens", "completion_tokens"});
  a.cache_read_tokens =
      count(u, {"cache_read_input_tokens", "cached_input_tokens", "cacheReadTokens", "cached"});
  a.cache_write_tokens =
      count(u, {"cache_creation_input_tokens", "cache_write_input_tokens", "cacheWriteTokens"});
  if (a.input_tokens &&
      (u.contains("cache_read_input_tokens") || u.contains("cache_creation_input_tokens")))
    *a.input_tokens += a.cache_read_tokens.value_or(0) + a.cache_write_tokens.value_or(0);
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

const json* object_at(const json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_object() ? &*it : nullptr;
}

// The model's tool calls and which of them failed, by the call's id, from each CLI's events:
// Claude Code `tool_use` / `tool_result` (is_error) content blocks, Codex `item.completed` items
// (a command's non-zero exit, a failed status), Gemini CLI `tool_use` / `tool_result` (status).
struct ToolCalls {
  std::set<std::string> calls, failed;
  bool seen = false;

  void observe(const json& e, const std::string& type) {
    if (type == "assistant" || type == "user") {
      const json* m = object_at(e, "message");
      if (!m || !m->contains("content") || !(*m)["content"].is_array()) return;
      for (const json& c : (*m)["content"]) {
        if (!c.is_object()) continue;
        std::string kind = c.value("type", "");
        if (kind == "tool_use") call(c.value("id", ""));
        if (kind == "tool_result" && c.value("is_error", false)) fail(c.value("tool_use_id", ""));
      }
    } else if (type == "item.started" || type == "item.completed") {
      const json* item = object_at(e, "item");
      if (!item) return;
      std::string kind = item->value("type", "");
      static const std::set<std::string> tools = {"command_execution", "file_change",
                                                  "mcp_tool_call", "web_search"};
      if (!tools.count(kind)) return;
      std::string id = item->value("id", "");
      call(id);
      if (type != "item.completed") return;
      auto exit = item->find("exit_code");
      bool bad = item->value("status", "") == "failed" ||
                 (exit != item->end() && exit->is_number() && exit->get<int64_t>() != 0);
      if (bad) fail(id);
    } else if (type == "tool_use") {
      call(e.value("tool_id", ""));
    } else if (type == "tool_result") {
      std::string status = e.value("status", "");
      if (!status.empty() && status != "success") fail(e.value("tool_id", ""));
    }
  }
  void call(const std::string& id) {
    seen = true;
    calls.insert(id.empty() ? "#" + std::to_string(calls.size()) : id);
  }
  void fail(const std::string& id) {
    seen = true;
    std::string key = id.empty() ? "#failed" + std::to_string(failed.size()) : id;
    failed.insert(key);
    calls.insert(key);
  }
};

}  // namespace

AgentUsage parse_usage(std::istream& stream) {
  AgentUsage total;  // final totals (result events, cumulative token_count)
  AgentUsage turns;  // per-turn usage to sum (codex turn.completed)
  bool have_total = false, have_turns = false;
  ToolCalls tools;
  std::string line;
  while (std::getline(stream, line)) {
    if (line.empty() || line[0] != '{') continue;
    json e = json::parse(line, nullptr, false);
    if (e.is_discarded() || !e.is_object()) continue;
    std::string type = e.value("type", "");
    tools.observe(e, type);
    if (type == "result" && (object_at(e, "usage") || object_at(e, "stats"))) {
      total = read_usage(object_at(e, "usage") ? e["usage"] : e["stats"]);
      total.cost_usd = cost(e);
      have_total = true;
    } else if (type == "result" && cost(e)) {
      total.cost_usd = cost(e);
      have_total = true;
    } else if (type == "turn.completed" && object_at(e, "usage")) {
      AgentUsage u = read_usage(e["usage"]);
      add(turns.input_tokens, u.input_tokens);
      add(turns.output_tokens, u.output_tokens);
      add(turns.cache_read_tokens, u.cache_read_tokens);
      add(turns.cache_write_tokens, u.cache_write_tokens);
      have_turns = true;
    } else if (const json* m = object_at(e, "msg"); m && m->value("type", "") == "token_count") {
      const json* info = object_at(*m, "info");
      if (info && object_at(*info, "total_token_usage"))
        total = read_usage((*info)["total_token_usage"]);
      else
        total = read_usage(*m);
      have_total = true;
    }
  }
  AgentUsage out = have_total ? total : have_turns ? turns : AgentUsage{};
  if (tools.seen) {
    out.tool_calls = static_cast<int64_t>(tools.calls.size());
    out.failed_tool_calls = static_cast<int64_t>(tools.failed.size());
  }
  return out;
}

AgentUsage parse_usage_file(const std::filesystem::path& log) {
  std::ifstream in(log);
  if (!in) return {};
  return parse_usage(in);
}

void price_usage(AgentUsage& usage, const AgentPrices& prices) {
  if (usage.cost_usd || !prices.input || !prices.output) return;
  if (!usage.input_tokens || !usage.output_tokens) return;
  int64_t cached = usage.cache_read_tokens.value_or(0);
  double dollars = static_cast<double>(*usage.input_tokens - cached) * *prices.input +
                   static_cast<double>(cached) * prices.cached.value_or(*prices.input) +
                   static_cast<double>(*usage.output_tokens) * *prices.output;
  usage.cost_usd = dollars / 1e6;
  usage.cost_computed = true;
}

}  // namespace kta::engine
