// Keeping every process an agent starts inside its run, so that at its timeout (or when it exits)
// the whole tree goes, even a process that left the agent's session with setsid or double-forked
// itself away. Three ways, best first, the first this machine allows is used and named in the
// agent's record:
//   pid namespace   the agent runs as the first process of a PID namespace of its own
//                   (`unshare --pid --fork --kill-child`); when it ends, the kernel kills every
//                   process of the namespace. (With the sandbox on, bwrap's --unshare-pid does it.)
//   cgroup          the agent runs in a cgroup v2 of its own; cgroup.kill ends every member
//   process-tree    the agent's environment carries a token; every process whose environment
//                   holds it is killed (a process that also clears its environment escapes this
//                   last way, and only this one)
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kta::engine {

enum class Containment { pid_namespace, cgroup, process_tree };
const char* containment_name(Containment c);  // "pid namespace", "cgroup", "process-tree walk"

// What this machine allows, probed once per process (`environment` gives the probes their PATH).
// `why` names why the better ways are not used.
struct ContainmentChoice {
  Containment kind = Containment::process_tree;
  std::string why;
};
ContainmentChoice choose_containment(const std::map<std::string, std::string>& environment);
// The probes behind it, each naming in *why what is missing.
bool pid_namespace_available(const std::map<std::string, std::string>& environment,
                             std::string* why);
bool cgroup_available(std::string* why);

// One contained run: wraps the command before it starts and sweeps what is left after it ended.
class ContainedRun {
 public:
  // Prepares `kind` (a cgroup folder, a token). Falls back to process_tree when the cgroup
  // cannot be made.
  ContainedRun(Containment kind, const std::map<std::string, std::string>& environment);
  ~ContainedRun();
  ContainedRun(const ContainedRun&) = delete;
  ContainedRun& operator=(const ContainedRun&) = delete;

  Containment kind() const { return kind_; }
  // The command line and environment the agent starts with.
  std::vector<std::string> wrap(const std::vector<std::string>& argv) const;
  void add_environment(std::map<std::string, std::string>& env) const;
  // Kills every process of the run that is still alive (SIGKILL); returns how many were found.
  int sweep();

 private:
  Containment kind_;
  std::filesystem::path cgroup_;
  std::string token_;
};

// Every live process whose environment holds `NAME=value` (readable ones only).
std::vector<int> processes_with_environment(const std::string& name, const std::string& value);

}  // namespace kta::engine
