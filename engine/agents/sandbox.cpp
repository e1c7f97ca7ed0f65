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
  // Last, so the workspace shows through the tmpfs mounts above it.
  a.insert(a.end(), {"--bind", spec.workspace.string(), spec.workspace.string()});
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

std::vector<fs::path> agent_home_paths(const fs::path& h) {
  if (h.empty()) return {};
  return {h / ".claude", h / ".claude.json", h / ".codex", h / ".cursor", h / ".config" / "cursor"};
}

}  // namespace kta::engine
