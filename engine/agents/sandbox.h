// The bubblewrap sandbox around a command agent: the whole filesystem read-only, the workspace
// writable but for its task/ folder, the run folder, every kta cache folder and the task sources
// hidden behind empty tmpfs mounts,
// a private /tmp and process namespace, the network optional. See docs/agents.md.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kta::engine {

struct SandboxSpec {
  std::filesystem::path workspace;              // bound writable; the agent's working folder
  std::vector<std::filesystem::path> hidden;    // each replaced by an empty tmpfs
  std::vector<std::filesystem::path> writable;  // bound writable when they exist (CLI login state)
  // Bound writable after the hidden folders, like the workspace: the agent's own home for this
  // run, which lies in the (hidden) run folder.
  std::vector<std::filesystem::path> own;
  // Shown read-only although /tmp is private: kta's own files and the programs the agent's
  // command names, when they live under /tmp (a clone in a temporary folder, say).
  std::vector<std::filesystem::path> readable;
  bool network = true;
  // Inside the workspace, bound read-only over it (the task's own files): a mount no one in the
  // sandbox can write, root included.
  std::vector<std::filesystem::path> readonly;
};

// The bwrap command line that runs `inner` under `spec`.
std::vector<std::string> bwrap_argv(const SandboxSpec& spec, const std::vector<std::string>& inner,
                                    const std::string& bwrap = "bwrap");

// Whether bwrap is installed and can build the namespaces kta uses here (run with `environment`,
// which gives its PATH); *why says why not.
bool bwrap_usable(std::string* why, const std::map<std::string, std::string>& environment);

// Login and settings folders of the supported CLIs under `home`, kept writable in the sandbox.
std::vector<std::filesystem::path> agent_home_paths(const std::filesystem::path& home);

// Where an agent's program is: `command` itself when it names a path (relative to `cwd`), else
// the first executable file of that name in `path` (':'-separated, as PATH); empty when none.
// Resolved before the sandbox starts, whose private /tmp may hide what PATH points into.
std::filesystem::path resolve_command(const std::string& command, const std::string& path,
                                      const std::filesystem::path& cwd);

// What running `program` needs to read besides the system's folders: the file and every target
// of its symlinks, the package it runs from (the node_modules folder its real file lies in, with
// the package's dependencies, else that file's folder) and, for a script, the interpreter its #!
// line names (through `path` for `#!/usr/bin/env NAME`) with its installation (the folder above its
// bin/).
std::vector<std::filesystem::path> command_needs(const std::filesystem::path& program,
                                                 const std::string& path);

// What an agent needs to read besides the workspace: the folder of the running kta binary (its
// worker and runtime libraries), kta's source or install root (stdlib, runtime headers), and
// every absolute path the command line names.
std::vector<std::filesystem::path> agent_readable_paths(const std::vector<std::string>& argv,
                                                        const std::filesystem::path& stdlib_dir);

}  // namespace kta::engine
