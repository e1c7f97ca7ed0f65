#include "engine/plan/agent_use.h"

#include <fmt/format.h>

#include <set>
#include <system_error>

#include "lang/placeholders.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

std::string short_name(const std::string& qualified) {
  auto dot = qualified.rfind('.');
  return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

std::string string_arg(const model::AgentUse& agent, const std::string& name) {
  auto it = agent.args.find(name);
  if (it == agent.args.end()) return {};
  if (auto* s = std::get_if<std::string>(&it->second)) return *s;
  return {};
}

std::string safe_name(std::string s) {
  for (char& c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    if (!ok) c = '_';
  }
  return s;
}

}  // namespace

fs::path job_path(const TaskJob& job) {
  return fs::path(safe_name(job.task.name)) / safe_name(job.agent_label) /
         std::to_string(job.repeat);
}

AgentKind agent_kind(const model::AgentUse& agent) {
  std::string n = short_name(agent.decl.name);
  if (n == "baseline") return AgentKind::baseline;
  if (n == "replay") return AgentKind::replay;
  return AgentKind::command;
}

std::string agent_label(const model::AgentUse& agent) {
  switch (agent_kind(agent)) {
    case AgentKind::baseline:
      return "baseline";
    case AgentKind::replay: {
      // Absolute folders (from --replay) are named by their last component, to keep reports short.
      fs::path dir = string_arg(agent, "dir");
      return "replay(" +
             (dir.is_absolute() ? dir.lexically_normal().filename().string() : dir.string()) + ")";
    }
    case AgentKind::command:
      break;
  }
  return short_name(agent.decl.name);
}

std::vector<CandidateFile> resolve_candidate(const model::AgentUse& agent, const model::Task& task,
                                             const fs::path& base_dir) {
  std::vector<CandidateFile> files;
  AgentKind kind = agent_kind(agent);
  fs::path dir;
  if (kind == AgentKind::replay) {
    dir = string_arg(agent, "dir");
    if (dir.is_relative()) dir = base_dir / dir;
    dir = dir.lexically_normal() / task.name;
  }
  for (const auto& editable : task.editable) {
    CandidateFile f;
    f.editable = editable;
    f.source = editable;
    if (kind == AgentKind::replay) {
      fs::path candidate = dir / editable.filename();
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) {
        f.source = candidate;
      } else {
        f.found = false;
      }
    }
    files.push_back(std::move(f));
  }
  return files;
}

model::AgentUse baseline_agent() {
  model::AgentUse a;
  a.decl.name = "std.agents.baseline";
  a.decl.builtin = true;
  return a;
}

model::AgentUse replay_agent(const std::string& dir) {
  model::AgentUse a;
  a.decl.name = "std.agents.replay";
  a.decl.builtin = true;
  a.args["dir"] = dir;
  return a;
}

std::string placeholder_text(const model::Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return fmt::format("{}", std::get<double>(v));
}

std::vector<std::string> unknown_placeholders(const model::AgentUse& agent) {
  const auto& builtin = lang::builtin_placeholders();
  std::set<std::string> known(builtin.begin(), builtin.end());
  for (const auto& [name, value] : agent.args) known.insert(name);
  std::vector<std::string> out;
  auto scan = [&](const std::string& t) {
    for (const std::string& name : lang::placeholder_names(t))
      if (!known.count(name)) out.push_back(name);
  };
  for (const auto& t : agent.decl.command) scan(t);
  for (const auto& t : agent.decl.check) scan(t);
  for (const auto& [k, t] : agent.decl.env) scan(t);
  for (const auto& f : agent.decl.files) {
    scan(f.path);
    scan(f.content);
  }
  return out;
}

}  // namespace kta::engine
