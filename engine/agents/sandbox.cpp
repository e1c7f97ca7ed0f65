#include "engine/agents/sandbox.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "engine/agents/process.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// /tmp is a fresh tmpfs already: paths under it are hidden without a mount of their own.
bool under_tmp(const fs::path& p) {
  auto s = p.lexically_normal().string();
  return s == "/tmp" || s.starts_with("/tmp/");
}

}  // namespace

std::vector<std::string> bwrap_argv(const SandboxSpec& spec, const std::vector<std::string>& inner,
                                    const std::string& bwrap) {
  std::vector<std::string> a = {bwrap,    "--ro-bind", "/",      "/",     "--dev",
                                "/dev",   "--proc",    "/proc",  "--tmpfs", "/tmp"};
  for (const auto& w : spec.writable) {
    std::error_code ec;
    if (w.empty() || !fs::exists(w, ec)) continue;
    a.insert(a.end(), {"--bind", w.string(), w.string()});
  }
  // After the writable binds, so none of them can expose a hidden folder again.
  for (const auto& h : spec.hidden) {
    std::error_code ec;
    if (h.empty() || under_tmp(h) || !fs::is_directory(h, ec)) continue;
    a.insert(a.end(), {"--tmpfs", h.string()});
  }
  // Last, so the workspace shows through the tmpfs mounts above it.
  a.insert(a.end(), {"--bind", spec.workspace.string(), spec.workspace.string()});
  a.insert(a.end(), {"--unshare-pid", "--die-with-parent"});
  if (!spec.network) a.push_back("--unshare-net");
  a.insert(a.end(), {"--chdir", spec.workspace.string(), "--"});
  a.insert(a.end(), inner.begin(), inner.end());
  return a;
}

bool bwrap_usable(std::string* why) {
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
  p.env = current_environment();
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
    *why = r.exit_code == 127 ? "bwrap is not installed" : "bwrap " + r.status() + (log.empty() ? "" : ": " + log);
  }
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  return ok;
}

std::vector<fs::path> agent_home_paths() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  fs::path h = home;
  return {h / ".claude", h / ".claude.json", h / ".codex", h / ".cursor", h / ".config" / "cursor"};
}

}  // namespace kta::engine
