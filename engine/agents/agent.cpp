#include "engine/agents/agent.h"

#include <system_error>

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

PreparedCandidate prepare_candidate(const TaskJob& job, const fs::path& workspace) {
  PreparedCandidate out;
  out.entry = job.task.candidate;
  std::error_code ec;
  fs::create_directories(workspace, ec);
  if (ec) {
    out.ok = false;
    out.reason = "cannot create workspace " + workspace.string() + ": " + ec.message();
    return out;
  }
  int missing = 0;
  for (const auto& f : job.candidate) {
    fs::path dst = workspace / f.editable.filename();
    fs::copy_file(f.source, dst, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      out.ok = false;
      out.reason = "cannot copy " + f.source.string() + ": " + ec.message();
      return out;
    }
    if (!f.found) ++missing;
    out.files.push_back(dst);
    if (f.editable == job.task.candidate.file) out.entry.file = dst;
  }
  if (agent_kind(job.agent) == AgentKind::command) {
    // The agent's own outcome is the prepare step's reason (step_prepare.cpp).
  } else if (missing > 0 && missing == static_cast<int>(job.candidate.size())) {
    out.reason = "no solution, baseline used";
  } else if (missing > 0) {
    out.reason = std::to_string(missing) + " of " + std::to_string(job.candidate.size()) +
                 " editable files missing, baseline used for those";
  }
  return out;
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

}  // namespace kta::engine
