#include "engine/agents/command_line.h"

#include <fmt/format.h>

#include "lang/placeholders.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> values_of(const model::AgentUse& agent, const AgentContext& c) {
  std::map<std::string, std::string> v;
  for (const auto& [name, value] : agent.args) v[name] = placeholder_text(value);
  v["prompt"] = c.prompt;
  v["prompt_file"] = c.prompt_file.string();
  v["workspace"] = c.workspace.string();
  v["task"] = c.task;
  v["home"] = c.home.string();
  if (!v.count("model")) v["model"] = "";  // agents without a model parameter: empty
  return v;
}

}  // namespace

std::optional<std::string> fill_placeholders(const std::string& tmpl,
                                             const std::map<std::string, std::string>& values,
                                             std::string* error) {
  std::string out;
  size_t pos = 0;
  for (const lang::Placeholder& p : lang::placeholders_in(tmpl)) {
    out += tmpl.substr(pos, p.begin - pos);
    pos = p.end;
    auto it = values.find(p.name);
    if (it == values.end()) {
      if (error) *error = fmt::format("unknown placeholder '{{{}}}' in '{}'", p.name, tmpl);
      return std::nullopt;
    }
    const std::string& value = it->second;
    bool alternative = p.op == '+' ? !value.empty() : p.op == '-' && value.empty();
    if (!alternative) {
      if (p.op != '+') out += value;
      continue;
    }
    auto text = fill_placeholders(p.text, values, error);
    if (!text) return std::nullopt;
    out += *text;
  }
  return out + tmpl.substr(pos);
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
    if (!s->empty()) cl.env[k] = std::move(*s);
  }
  for (const model::AgentFile& f : agent.decl.files) {
    auto path = fill_placeholders(f.path, values, error);
    auto content = path ? fill_placeholders(f.content, values, error) : std::nullopt;
    if (!content) return std::nullopt;
    fs::path p = fs::path(*path).lexically_normal();
    if (p.empty() || p.is_absolute() || *p.begin() == "..") {
      if (error) *error = fmt::format("file '{}' is outside the agent's home", *path);
      return std::nullopt;
    }
    cl.files[p.generic_string()] = std::move(*content);
  }
  if (cl.argv.empty() && error) *error = "the agent has no command";
  if (cl.argv.empty()) return std::nullopt;
  return cl;
}

namespace {

// Each template filled with the agent's own values (no run context); `keep_empty`: a template
// that fills to "" stays as an empty entry.
std::optional<std::vector<std::string>> fill_all(const model::AgentUse& agent,
                                                 const std::vector<std::string>& templates,
                                                 bool keep_empty, std::string* error) {
  auto values = values_of(agent, AgentContext{});
  std::vector<std::string> out;
  for (const auto& t : templates) {
    auto s = fill_placeholders(t, values, error);
    if (!s) return std::nullopt;
    if (keep_empty || !s->empty()) out.push_back(std::move(*s));
  }
  return out;
}

}  // namespace

std::optional<std::vector<std::string>> build_check(const model::AgentUse& agent,
                                                    std::string* error) {
  return fill_all(agent, agent.decl.check, true, error);
}

std::optional<std::vector<std::string>> build_keys(const model::AgentUse& agent,
                                                   std::string* error) {
  return fill_all(agent, agent.decl.keys, false, error);
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
