#include "engine/agents/agent_run.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

#include "engine/agents/agent.h"
#include "engine/agents/command_line.h"
#include "engine/agents/prompt.h"
#include "engine/agents/sandbox.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

std::string job_file_stem(const TaskJob& job) {
  fs::path p = job_path(job);
  std::string s;
  for (const auto& part : p) s += (s.empty() ? "" : ".") + part.string();
  return s;
}

bool write_text(const fs::path& p, const std::string& text) {
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

// The agent's environment: ours without kta's own settings (the cache folder among them).
std::map<std::string, std::string> agent_environment(const AgentRunOptions& o,
                                                     const CommandLine& cl) {
  auto env = o.environment;
  std::erase_if(env, [](const auto& kv) { return kv.first.starts_with("KTA_"); });
  for (const auto& [k, v] : cl.env) env[k] = v;
  return env;
}

// The PATH the agent's command is looked up in (its environment's; empty when unset).
std::string agent_path(const AgentRunOptions& o, const CommandLine& cl) {
  const auto env = agent_environment(o, cl);
  const auto path = env.find("PATH");
  return path == env.end() ? std::string() : path->second;
}

// Decides the sandbox; an error when it is required and unusable.
std::optional<std::string> choose_sandbox(const AgentRunOptions& o, AgentRun& run) {
  if (o.sandbox == "off") {
    run.sandbox_note =
        "sandbox off in the plan: the agent's writes outside its workspace are not tracked";
    return std::nullopt;
  }
  std::string why;
  run.sandboxed = bwrap_usable(&why, o.environment);
  if (!run.sandboxed) {
    run.sandbox_note = why + ": the agent's writes outside its workspace are not tracked";
    if (o.sandbox == "on") return "the plan requires a sandbox but " + why;
  }
  return std::nullopt;
}

// Copies the editable files into the run folder; a file the agent deleted comes from the baseline.
std::optional<std::string> take_back(const TaskJob& job, const fs::path& workspace, AgentRun& run) {
  std::error_code ec;
  for (const auto& f : job.candidate) {
    fs::path name = f.editable.filename();
    fs::path from = workspace / name;
    // A link could point the candidate at any file kta can read: only plain files come back.
    auto st = fs::symlink_status(from, ec);
    if (fs::is_symlink(st)) {
      run.notes.push_back("editable file replaced by a link: " + name.string() +
                          " (baseline used)");
      from = f.editable;
    } else if (!fs::is_regular_file(st)) {
      run.notes.push_back("editable file deleted: " + name.string() + " (baseline used)");
      from = f.editable;
    }
    fs::create_directories(f.source.parent_path(), ec);
    fs::copy_file(from, f.source, fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot take back " + name.string() + ": " + ec.message();
  }
  return std::nullopt;
}

void note_changes(AgentRun& run) {
  const WorkspaceChanges& c = run.changes;
  for (const auto& p : c.readonly_edited)
    run.notes.push_back("edited a non-editable file: " + p + " (ignored)");
  for (const auto& p : c.other) run.notes.push_back(p + " (ignored)");
  for (const auto& p : c.outside) run.notes.push_back("wrote outside the workspace: " + p);
  if (c.unchanged) run.notes.push_back("candidate unchanged from the baseline");
}

// The agent's home for this run, made fresh: the user's logins the declaration names (copied,
// never linked: the agent may write its home), then the declaration's files. *copied lists the
// logins, removed again after the run so no credential stays in the run folder.
std::optional<std::string> make_home(const fs::path& home, const model::AgentDecl& decl,
                                     const CommandLine& cl, const fs::path& user_home,
                                     std::vector<fs::path>* copied) {
  std::error_code ec;
  fs::remove_all(home, ec);
  fs::create_directories(home, ec);
  if (ec) return "cannot make the agent's home " + home.string() + ": " + ec.message();
  auto private_file = [&](const fs::path& p) {
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write, ec);
  };
  for (const std::string& login : decl.logins) {
    fs::path from = user_home / login;
    if (user_home.empty() || !fs::is_regular_file(from, ec)) continue;
    fs::create_directories((home / login).parent_path(), ec);
    if (!fs::copy_file(from, home / login, fs::copy_options::overwrite_existing, ec))
      return "cannot copy the login " + from.string() + ": " + ec.message();
    private_file(home / login);
    copied->push_back(home / login);
  }
  for (const auto& [path, content] : cl.files) {
    if (!write_text(home / path, content)) return "cannot write " + (home / path).string();
    private_file(home / path);
  }
  return std::nullopt;
}

// `price_per_mtok_in`, `_out`, `_cached` of the agent use, where it has them.
AgentPrices prices_of(const model::AgentUse& agent) {
  auto price = [&](const char* name) -> std::optional<double> {
    auto it = agent.args.find(name);
    if (it == agent.args.end()) return std::nullopt;
    if (const auto* d = std::get_if<double>(&it->second)) return *d;
    if (const auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
    return std::nullopt;
  };
  return {price("price_per_mtok_in"), price("price_per_mtok_out"), price("price_per_mtok_cached")};
}

// "2 of 5 tool calls failed", when the stream told of failed ones.
std::string failed_tools(const AgentUsage& u) {
  if (!u.failed_tool_calls || *u.failed_tool_calls == 0) return {};
  return fmt::format("{} of {} tool calls failed", *u.failed_tool_calls,
                     u.tool_calls.value_or(*u.failed_tool_calls));
}

}  // namespace

std::string AgentRun::summary() const {
  if (!ran) return error;
  if (!failure.empty()) return failure;
  std::string s = "agent " + process.status();
  if (!process.timed_out && process.exit_code == 0 && !process.signal) s = "agent finished";
  if (changes.unchanged) s += "; candidate unchanged from the baseline";
  if (std::string failed = failed_tools(usage); !failed.empty()) s += "; " + failed;
  size_t ignored = changes.readonly_edited.size() + changes.other.size() + changes.outside.size();
  if (ignored) s += fmt::format("; {} ignored write{}", ignored, ignored == 1 ? "" : "s");
  return s;
}

namespace {

// The first line of `file` that starts with `prefix`, trimmed; empty when none.
std::string first_line_with(const fs::path& file, const std::string& prefix) {
  std::ifstream in(file);
  std::string line;
  for (int n = 0; n < 200 && std::getline(in, line); ++n)
    if (line.starts_with(prefix)) return line.substr(0, 300);
  return {};
}

// Everything before the agent starts: placeholders, workspace, prompt, command line, sandbox.
// nullopt with run.error set when the agent cannot run.
std::optional<CommandLine> prepare_run(const TaskJob& job, const fs::path& workspace,
                                       const AgentRunOptions& o, AgentRun& run) {
  if (auto bad = unknown_placeholders(job.agent); !bad.empty()) {
    run.error =
        fmt::format("agent '{}': unknown placeholder '{{{}}}'", job.agent_label, bad.front());
    return std::nullopt;
  }
  if (auto err = make_workspace(job, workspace, WorkspaceSpec{{}, o.device})) {
    run.error = *err;
    return std::nullopt;
  }
  std::string why;
  auto prompt =
      build_prompt(job, o.device, prompts_dir(o.prompts_dir, o.stdlib_dir), &why, o.warp_size);
  if (!prompt) {
    run.error = "cannot build the prompt: " + why;
    return std::nullopt;
  }
  std::string stem = job_file_stem(job);
  run.prompt = fs::path("prompts") / (stem + ".md");
  run.log = fs::path("logs") / (stem + ".log");
  fs::path prompt_file = workspace / "PROMPT.md";
  if (!write_text(prompt_file, *prompt) || !write_text(o.run_dir / run.prompt, *prompt)) {
    run.error = "cannot write the prompt";
    return std::nullopt;
  }
  run.home = fs::path("homes") / job_path(job);
  fs::path home = o.run_dir / run.home;
  auto cl = build_command(job.agent,
                          AgentContext{*prompt, prompt_file, workspace, job.task.name, home}, &why);
  if (!cl) {
    run.error = fmt::format("agent '{}': {}", job.agent_label, why);
    return std::nullopt;
  }
  if (auto err = make_home(home, job.agent.decl, *cl, o.home, &run.logins)) {
    run.error = fmt::format("agent '{}': {}", job.agent_label, *err);
    return std::nullopt;
  }
  if (auto err = choose_sandbox(o, run)) {
    run.error = *err;
    return std::nullopt;
  }
  // The program as PATH finds it now: inside the sandbox /tmp is private, and what the command
  // runs from (an npm install in a build tree under /tmp, say) is bound back by its real path.
  const std::string search = agent_path(o, *cl);
  fs::path program =
      resolve_command(cl->argv.empty() ? std::string() : cl->argv[0], search, workspace);
  if (program.empty()) {
    run.error =
        fmt::format("agent '{}' not started: command '{}' not found on PATH ({})", job.agent_label,
                    cl->argv.empty() ? "" : cl->argv[0], search.empty() ? "PATH unset" : search);
    return std::nullopt;
  }
  cl->argv[0] = program.string();
  return cl;
}

// The agent's process: its command (inside bwrap when sandboxed), environment, log and limits.
ProcessSpec agent_process(const TaskJob& job, const fs::path& workspace, const AgentRunOptions& o,
                          const AgentRun& run, const CommandLine& cl) {
  ProcessSpec p;
  p.argv = cl.argv;
  if (run.sandboxed) {
    std::vector<fs::path> hidden = {o.run_dir, o.cache_dir, job.task.dir};
    hidden.insert(hidden.end(), o.cache_dirs.begin(), o.cache_dirs.end());
    std::vector<fs::path> readable = agent_readable_paths(cl.argv, o.stdlib_dir);
    for (const fs::path& need : command_needs(cl.argv[0], agent_path(o, cl)))
      readable.push_back(need);
    SandboxSpec s{workspace, hidden,   agent_home_paths(o.home), {o.run_dir / run.home},
                  readable,  o.network};
    // The task's files in the workspace: a read-only mount, which root cannot write either.
    s.readonly = {workspace / kTaskDir};
    p.argv = bwrap_argv(s, cl.argv);
  }
  p.env = agent_environment(o, cl);
  // bwrap's own PID namespace holds a sandboxed agent's tree; the token sweep backs it up.
  p.containment =
      run.sandboxed ? Containment::process_tree : choose_containment(o.environment).kind;
  p.cwd = workspace;
  p.log = o.run_dir / run.log;
  p.timeout = std::chrono::nanoseconds(job.agent.decl.timeout_ns);
  p.grace = o.grace.value_or(std::chrono::nanoseconds(job.agent.decl.grace_ns));
  return p;
}

// Runs the agent between two snapshots of the workspace and the run folder, so every change it
// made is known: to the editable files, elsewhere in the workspace, outside it.
void run_and_observe(const TaskJob& job, const fs::path& workspace, const AgentRunOptions& o,
                     const ProcessSpec& p, AgentRun& run) {
  fs::create_directories(p.log.parent_path());
  fs::remove(p.log);
  std::map<std::string, fs::path> baseline;
  for (const auto& f : job.task.editable) baseline[f.filename().string()] = f;
  Snapshot before = snapshot(workspace), outside_before = outside_snapshot(o.run_dir, workspace);
  run.process = run_process(p);
  run.ran = run.process.started;
  if (!run.ran) run.error = "agent not started: " + run.process.error;
  // bwrap started, but not the program in it (a file the sandbox hides, a missing interpreter).
  if (run.ran && run.sandboxed && run.process.exit_code == 1) {
    std::string line = first_line_with(p.log, "bwrap: ");
    if (!line.empty()) {
      run.ran = false;
      run.error = "agent not started in the sandbox: " + line;
    }
  }
  Snapshot after = snapshot(workspace), outside_after = outside_snapshot(o.run_dir, workspace);
  run.changes = compare_snapshots(before, after, baseline);
  for (const auto& [path, state] : outside_after) {
    auto b = outside_before.find(path);
    if (b == outside_before.end() || !(b->second == state)) run.changes.outside.push_back(path);
  }
}

}  // namespace

AgentRun run_command_agent(const TaskJob& job, const fs::path& workspace,
                           const AgentRunOptions& o) {
  AgentRun run;
  run.network = o.network;
  std::optional<CommandLine> cl = prepare_run(job, workspace, o, run);
  if (!cl) return run;
  ProcessSpec p = agent_process(job, workspace, o, run, *cl);
  run_and_observe(job, workspace, o, p, run);
  std::error_code ec;
  // Writable again so the run folder can be cleared; the snapshot has already judged the edits.
  fs::permissions(workspace / kTaskDir, fs::perms::owner_write, fs::perm_options::add, ec);
  for (const fs::path& login : run.logins) fs::remove(login, ec);
  run.usage = parse_usage_file(p.log);
  price_usage(run.usage, prices_of(job.agent));
  note_changes(run);
  // A crash before any edit is the agent's failure, not a candidate equal to the baseline.
  const ProcessResult& pr = run.process;
  bool crashed = !pr.timed_out && (pr.signal || pr.exit_code.value_or(0) != 0);
  if (run.ran && crashed && run.changes.editable_changed.empty())
    run.failure = "agent " + pr.status() + " before changing any editable file";
  if (auto err = take_back(job, workspace, run)) {
    run.ran = false;
    run.error = *err;
  }
  return run;
}

AgentRecord agent_record(const AgentRun& run) {
  AgentRecord a;
  a.status = run.ran ? run.process.status() : run.error;
  a.summary = run.summary();
  a.wall_seconds = run.process.wall_seconds;
  a.exit_code = run.process.exit_code;
  a.signal = run.process.signal;
  a.timed_out = run.process.timed_out;
  a.tokens = run.usage;
  a.changed_files = run.changes.editable_changed;
  a.unchanged = run.changes.unchanged;
  for (const auto& n : run.notes)
    if (n != "candidate unchanged from the baseline") a.ignored_writes.push_back(n);
  a.sandbox = run.sandboxed ? "bwrap" : "none";
  a.sandbox_note = run.sandbox_note;
  a.containment =
      run.sandboxed && run.process.started ? "pid namespace (bwrap)" : run.process.containment;
  a.swept = run.process.swept;
  a.network = run.network;
  a.log = run.log.generic_string();
  a.prompt = run.prompt.generic_string();
  a.home = run.home.generic_string();
  return a;
}

}  // namespace kta::engine
