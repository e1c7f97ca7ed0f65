#include "engine/agents/command_line.h"

#include <fmt/format.h>

namespace kta::engine {

namespace {

std::map<std::string, std::string> values_of(const model::AgentUse& agent, const AgentContext& c) {
  std::map<std::string, std::string> v;
  for (const auto& [name, value] : agent.args) v[name] = placeholder_text(value);
  v["prompt"] = c.prompt;
  v["prompt_file"] = c.prompt_file.string();
  v["workspace"] = c.workspace.string();
  v["task"] = c.task;
  if (!v.count("model")) v["model"] = "";  // agents without a model parameter: empty
  return v;
}

}  // namespace

std::optional<std::string> fill_placeholders(const std::string& tmpl,
                                             const std::map<std::string, std::string>& values,
                                             std::string* error) {
  std::string out;
  size_t pos = 0;
  while (pos < tmpl.size()) {
    size_t open = tmpl.find('{', pos);
    if (open == std::string::npos) {
      out += tmpl.substr(pos);
      break;
    }
    out += tmpl.substr(pos, open - pos);
    size_t close = tmpl.find('}', open);
    if (close == std::string::npos) {
      if (error) *error = fmt::format("unclosed '{{' in '{}'", tmpl);
      return std::nullopt;
    }
    std::string name = tmpl.substr(open + 1, close - open - 1);
    auto it = values.find(name);
    if (it == values.end()) {
      if (error) *error = fmt::format("unknown placeholder '{{{}}}' in '{}'", name, tmpl);
      return std::nullopt;
    }
    out += it->second;
    pos = close + 1;
  }
  return out;
}

std::optional<CommandLine> build_command(const model::AgentUse& agent, const AgentContext& context,
                                         std::string* error) {
  auto values = values_of(agent, context);
  CommandLine cl;
  for (const auto& t : agent.decl.command) {
    auto s = fill_placeholders(t, values, error);
    if (!s) return std::nullopt;
    cl.argv.push_back(std::move(*s));
  }
  for (const auto& [k, t] : agent.decl.env) {
    auto s = fill_placeholders(t, values, error);
    if (!s) return std::nullopt;
    cl.env[k] = std::move(*s);
  }
  if (cl.argv.empty() && error) *error = "the agent has no command";
  if (cl.argv.empty()) return std::nullopt;
  return cl;
}

std::optional<std::vector<std::string>> build_check(const model::AgentUse& agent,
                                                    std::string* error) {
  auto values = values_of(agent, AgentContext{});
  std::vector<std::string> argv;
  for (const auto& t : agent.decl.check) {
    auto s = fill_placeholders(t, values, error);
    if (!s) return std::nullopt;
    argv.push_back(std::move(*s));
  }
  return argv;
}

std::string shell_quote(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789-_./=:,+@%") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace kta::engine
