// Where the real agent CLIs are for the tests that run them. cmake/setup.sh installs the pinned
// versions of tests/agents/clis (Claude Code, Codex, Gemini CLI and a Node runtime of their own)
// with npm ci into KTA_AGENT_CLIS_DIR (agent-clis/ in the build folder) and links each CLI, and
// the pinned node, into its bin/. That folder goes first on PATH when a CLI runs: Codex and Gemini
// are `#!/usr/bin/env node` scripts, so this makes them run on the pinned node (Debian 12's is 18,
// too old for Gemini CLI), and kta's sandbox finds the same node through the same PATH.
// When the install failed, setup.sh leaves the reason in .install-failed there; a test that
// cannot find a CLI skips with that reason (GTEST_SKIP() << cli.missing).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#ifndef KTA_AGENT_CLIS_DIR
#error "KTA_AGENT_CLIS_DIR: the target needs the install folder, ${CMAKE_BINARY_DIR}/agent-clis"
#endif

namespace kta::test {

struct AgentCli {
  std::filesystem::path exe;  // <install>/bin/<name>; empty when missing
  std::string missing;        // why it is missing, for GTEST_SKIP; empty when found
};

inline std::filesystem::path agent_clis_dir() { return KTA_AGENT_CLIS_DIR; }

// The folder to put first on PATH: claude, codex, gemini and the pinned node.
inline std::filesystem::path agent_clis_bin() { return agent_clis_dir() / "bin"; }

// `name`: claude, codex or gemini.
inline AgentCli find_agent_cli(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = agent_clis_dir();
  fs::path exe = agent_clis_bin() / name;
  if (fs::is_regular_file(exe, ec)) return {exe, ""};  // follows the link into node_modules
  const std::string rerun = "; `bash cmake/setup.sh build` installs the agent CLIs (npm ci)";
  if (std::ifstream failed{dir / ".install-failed"}) {
    std::string why;
    std::getline(failed, why);
    return {{}, "agent CLIs not installed: " + why};
  }
  if (!fs::exists(dir / ".installed", ec))
    return {{}, "agent CLIs not installed in " + dir.string() + rerun};
  return {{}, "the agent CLI install in " + dir.string() + " has no " + name + rerun};
}

// PATH for running a CLI: the install's bin first, then the test's own PATH.
inline std::string agent_clis_path() {
  const char* path = std::getenv("PATH");
  return agent_clis_bin().string() + ":" + (path ? path : "/usr/local/bin:/usr/bin:/bin");
}

}  // namespace kta::test
