#include "engine/agents/sandbox.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engine/agents/process.h"
#include "lang/module.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

bool under(const fs::path& p, const fs::path& root) {
  auto s = p.lexically_normal().string(), r = root.lexically_normal().string();
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  return s == r || s.starts_with(r + "/");
}

}  // namespace

std::vector<std::string> bwrap_argv(const SandboxSpec& spec, const std::vector<std::string>& inner,
                                    const std::string& bwrap) {
  std::vector<std::string> a = {bwrap,  "--ro-bind", "/",     "/",       "--dev",
                                "/dev", "--proc",    "/proc", "--tmpfs", "/tmp"};
  // /tmp is private; what must stay readable under it is bound back, read-only.
  std::vector<fs::path> shown;
  for (const auto& r : spec.readable) {
    std::error_code ec;
    if (r.empty() || !under(r, "/tmp") || !fs::exists(r, ec)) continue;
    a.insert(a.end(), {"--ro-bind", r.string(), r.string()});
    shown.push_back(r);
  }
  for (const auto& w : spec.writable) {
    std::error_code ec;
    if (w.empty() || !fs::exists(w, ec)) continue;
    a.insert(a.end(), {"--bind", w.string(), w.string()});
  }
  // After the writable binds, so none of them can expose a hidden folder again.
  for (const auto& h : spec.hidden) {
    std::error_code ec;
    // Under the private /tmp a folder is hidden already, unless a readable path showed it again.
    bool visible = !under(h, "/tmp") || std::any_of(shown.begin(), shown.end(),
                                                    [&](const fs::path& r) { return under(h, r); });
    if (h.empty() || !visible || !fs::is_directory(h, ec)) continue;
    a.insert(a.end(), {"--tmpfs", h.string()});
  }
  // Last, so the workspace and the agent's home show through the tmpfs mounts above them.
  a.insert(a.end(), {"--bind", spec.workspace.string(), spec.workspace.string()});
  for (const auto& o : spec.own) {
    std::error_code ec;
    if (!o.empty() && fs::is_directory(o, ec))
      a.insert(a.end(), {"--bind", o.string(), o.string()});
  }
  for (const auto& r : spec.readonly) {
    std::error_code ec;
    if (!r.empty() && fs::exists(r, ec)) a.insert(a.end(), {"--ro-bind", r.string(), r.string()});
  }
  a.insert(a.end(), {"--unshare-pid", "--die-with-parent"});
  if (!spec.network) a.push_back("--unshare-net");
  a.insert(a.end(), {"--chdir", spec.workspace.string(), "--"});
  a.insert(a.end(), inner.begin(), inner.end());
  return a;
}

bool bwrap_usable(std::string* why, const std::map<std::string, std::string>& environment) {
  char tmpl[] = "/tmp/kta-bwrap-probe-XXXXXX";
  if (!mkdtemp(tmpl)) {
    if (why) *why = "cannot make a probe folder";
    return false;
  }
  SandboxSpec s;
  s.workspace = tmpl;
  s.network = false;
  ProcessSpec p;
  p.argv = bwrap_argv(s, {"true"});
  p.env = environment;
  p.log = fs::path(tmpl) / "probe.log";
  p.timeout = std::chrono::seconds(10);
  p.grace = std::chrono::seconds(1);
  ProcessResult r = run_process(p);
  bool ok = r.started && r.exit_code == 0;
  if (!ok && why) {
    std::string log;
    if (auto f = std::fopen(p.log.c_str(), "r")) {
      char buf[512];
      size_t n = std::fread(buf, 1, sizeof buf - 1, f);
      log.assign(buf, n);
      std::fclose(f);
    }
    while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
    *why = r.exit_code == 127 ? "bwrap is not installed"
                              : "bwrap " + r.status() + (log.empty() ? "" : ": " + log);
  }
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  return ok;
}

std::vector<fs::path> agent_readable_paths(const std::vector<std::string>& argv,
                                           const fs::path& stdlib_dir) {
  std::vector<fs::path> paths;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) paths.push_back(self.parent_path());
  fs::path stdlib = fs::absolute(stdlib_dir.empty() ? lang::default_stdlib_dir() : stdlib_dir, ec);
  if (!ec) paths.push_back(stdlib.parent_path());
  for (const auto& arg : argv) {
    fs::path p = arg;
    if (p.is_absolute() && fs::exists(p, ec)) paths.push_back(p);
  }
  return paths;
}

fs::path resolve_command(const std::string& command, const std::string& path, const fs::path& cwd) {
  std::error_code ec;
  if (command.empty()) return {};
  if (command.find('/') != std::string::npos) {
    fs::path p = fs::path(command).is_absolute() ? fs::path(command) : cwd / command;
    return fs::exists(p, ec) ? p.lexically_normal() : fs::path();
  }
  for (size_t b = 0; b <= path.size();) {
    size_t e = std::min(path.find(':', b), path.size());
    fs::path dir = e > b ? fs::path(path.substr(b, e - b)) : cwd;  // an empty entry: the cwd
    if (dir.is_relative()) dir = cwd / dir;
    fs::path candidate = dir / command;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
      return candidate.lexically_normal();
    b = e + 1;
  }
  return {};
}

namespace {

// The interpreter a script's #! line names, resolved; empty for a binary or none.
fs::path interpreter_of(const fs::path& script, const std::string& path) {
  FILE* f = std::fopen(script.c_str(), "rb");
  if (f == nullptr) return {};
  char buf[256] = {};
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  std::string line(buf, n);
  if (!line.starts_with("#!")) return {};
  line = line.substr(
      2, line.find('\n') == std::string::npos ? std::string::npos : line.find('\n') - 2);
  std::vector<std::string> words;
  for (size_t b = 0; b < line.size();) {
    size_t e = line.find_first_of(" \t", b);
    if (e == std::string::npos) e = line.size();
    if (e > b) words.push_back(line.substr(b, e - b));
    b = e + 1;
  }
  if (words.empty()) return {};
  if (fs::path(words[0]).filename() != "env") return words[0];
  for (size_t i = 1; i < words.size(); ++i)
    if (!words[i].starts_with("-") && words[i].find('=') == std::string::npos)
      return resolve_command(words[i], path, "/");
  return {};
}

// A program's symlink chain (each link and its final target) and the package it runs from.
void add_program(const fs::path& program, std::vector<fs::path>& out) {
  std::error_code ec;
  fs::path p = program;
  for (int hops = 0; hops < 16 && fs::is_symlink(p, ec); ++hops) {
    out.push_back(p);
    fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = (target.is_absolute() ? target : p.parent_path() / target).lexically_normal();
  }
  fs::path real = fs::canonical(p, ec);
  if (ec) return;
  out.push_back(real);
  // An npm package: the node_modules it lies in (its dependencies are there too).
  std::string s = real.string();
  size_t at = s.find("/node_modules/");
  out.push_back(at != std::string::npos ? fs::path(s.substr(0, at + 13)) : real.parent_path());
}

}  // namespace

std::vector<fs::path> command_needs(const fs::path& program, const std::string& path) {
  std::vector<fs::path> needs;
  if (program.empty()) return needs;
  add_program(program, needs);
  std::error_code ec;
  fs::path real = fs::canonical(program, ec);
  if (ec) return needs;
  fs::path interpreter = interpreter_of(real, path);
  if (!interpreter.empty() && fs::exists(interpreter, ec)) {
    size_t before = needs.size();
    add_program(interpreter, needs);
    // An interpreter installed in its own tree (prefix/bin/node): the whole tree.
    for (size_t i = before; i < needs.size(); ++i)
      if (needs[i].filename() == "bin") needs[i] = needs[i].parent_path();
  }
  return needs;
}

std::vector<fs::path> agent_home_paths(const fs::path& h) {
  if (h.empty()) return {};
  return {h / ".claude", h / ".claude.json", h / ".codex", h / ".cursor", h / ".config" / "cursor"};
}

}  // namespace kta::engine
