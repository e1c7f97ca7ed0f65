#include "engine/agents/containment.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "engine/ipc/command.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTokenName = "KTA_AGENT_TOKEN";

// `unshare` as agents are run under it; root needs no user namespace, others map themselves.
std::vector<std::string> unshare_prefix(bool as_root) {
  std::vector<std::string> p = {"unshare"};
  if (!as_root) p.push_back("--map-current-user");
  p.insert(p.end(), {"--pid", "--fork", "--kill-child", "--mount-proc", "--"});
  return p;
}

std::vector<std::string> env_list(const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

// The cgroup v2 folder this process is in, when the unified hierarchy is mounted.
std::optional<fs::path> own_cgroup() {
  std::ifstream mounts("/proc/self/mountinfo");
  std::string line;
  fs::path root;
  while (std::getline(mounts, line)) {
    // "... <mount point> <options> - cgroup2 <source> <super options>"
    auto dash = line.find(" - cgroup2 ");
    if (dash == std::string::npos) continue;
    std::istringstream fields(line.substr(0, dash));
    std::string f;
    for (int i = 0; i < 5 && fields >> f; ++i) {
      if (i == 4) root = f;
    }
    break;
  }
  if (root.empty()) return std::nullopt;
  std::ifstream cg("/proc/self/cgroup");
  while (std::getline(cg, line))
    if (line.starts_with("0::")) return root / fs::path(line.substr(3)).relative_path();
  return std::nullopt;
}

}  // namespace

bool pid_namespace_available(const std::map<std::string, std::string>& environment,
                             std::string* why) {
  std::vector<std::string> argv = unshare_prefix(geteuid() == 0);
  argv.push_back("true");
  ipc::CommandOptions o;
  o.timeout_s = 10;
  o.env = env_list(environment);
  ipc::CommandResult r = ipc::run_command(argv, o);
  if (r.ok()) return true;
  std::string out = r.output.substr(0, r.output.find('\n'));
  *why = "no PID namespace (" + (r.started ? "unshare: " + out : r.error) + ")";
  return false;
}

bool cgroup_available(std::string* why) {
  auto note = [&](const std::string& text) { *why += (why->empty() ? "" : "; ") + text; };
  auto base = own_cgroup();
  if (!base) {
    note("no cgroup v2");
    return false;
  }
  fs::path probe = *base / fmt::format("kta-probe-{}", getpid());
  std::error_code ec;
  bool ok = fs::create_directory(probe, ec) && fs::exists(probe / "cgroup.kill", ec);
  fs::remove(probe, ec);
  if (!ok) note("cgroup " + base->string() + " not writable or without cgroup.kill");
  return ok;
}

namespace {

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
}

}  // namespace

const char* containment_name(Containment c) {
  switch (c) {
    case Containment::pid_namespace:
      return "pid namespace";
    case Containment::cgroup:
      return "cgroup";
    case Containment::process_tree:
      return "process-tree walk";
  }
  return "?";
}

ContainmentChoice choose_containment(const std::map<std::string, std::string>& environment) {
  static std::mutex mu;
  static std::optional<ContainmentChoice> chosen;
  std::lock_guard lock(mu);
  if (chosen) return *chosen;
  ContainmentChoice c;
  if (pid_namespace_available(environment, &c.why)) {
    c.kind = Containment::pid_namespace;
    c.why.clear();
  } else if (cgroup_available(&c.why)) {
    c.kind = Containment::cgroup;
  }
  chosen = c;
  return c;
}

ContainedRun::ContainedRun(Containment kind, const std::map<std::string, std::string>&)
    : kind_(kind) {
  static std::atomic<int> serial{0};
  std::random_device rd;
  token_ = fmt::format("{:08x}{:08x}-{}", rd(), rd(), serial++);
  if (kind_ == Containment::cgroup) {
    auto base = own_cgroup();
    std::error_code ec;
    if (base) cgroup_ = *base / ("kta-agent-" + std::to_string(getpid()) + "-" + token_);
    if (!base || !fs::create_directory(cgroup_, ec)) {
      kind_ = Containment::process_tree;
      cgroup_.clear();
    }
  }
}

ContainedRun::~ContainedRun() {
  sweep();
  if (!cgroup_.empty()) {
    std::error_code ec;
    // A cgroup can be removed once its last member is gone; give the kernel a moment to reap.
    for (int i = 0; i < 100 && !fs::remove(cgroup_, ec); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::vector<std::string> ContainedRun::wrap(const std::vector<std::string>& argv) const {
  std::vector<std::string> out;
  if (kind_ == Containment::pid_namespace) {
    out = unshare_prefix(geteuid() == 0);
  } else if (kind_ == Containment::cgroup) {
    // Joins the cgroup before the agent runs, so nothing it starts is outside it.
    out = {"sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", cgroup_.string()};
  }
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

void ContainedRun::add_environment(std::map<std::string, std::string>& env) const {
  // Every way carries the token: it also finds what a namespace or cgroup could not hold.
  env[kTokenName] = token_;
}

int ContainedRun::sweep() {
  int found = 0;
  if (!cgroup_.empty()) {
    std::ifstream procs(cgroup_ / "cgroup.procs");
    for (int pid; procs >> pid;) ++found;
    if (found > 0) write_text(cgroup_ / "cgroup.kill", "1");
  }
  // Rounds, since a member may fork while the sweep runs.
  for (int round = 0; round < 20; ++round) {
    std::vector<int> left = processes_with_environment(kTokenName, token_);
    if (left.empty()) break;
    for (int pid : left) ::kill(pid, SIGKILL);
    found += static_cast<int>(left.size());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return found;
}

std::vector<int> processes_with_environment(const std::string& name, const std::string& value) {
  std::vector<int> out;
  std::string needle = name + "=" + value;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::string pid = e.path().filename().string();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "environ", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Entries are NUL-separated; match a whole entry.
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
      bool starts = at == 0 || text[at - 1] == '\0';
      bool ends = at + needle.size() == text.size() || text[at + needle.size()] == '\0';
      if (starts && ends) {
        out.push_back(std::stoi(pid));
        break;
      }
    }
  }
  return out;
}

}  // namespace kta::engine
