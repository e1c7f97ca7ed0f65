// Everything kta takes from its environment, read in one place: `kta` reads the process
// environment into a Settings once (the CLI's main), the command line overrides it, and each layer
// gets the plain option struct it needs (lang::LoadOptions, DeviceOptions, AgentRunOptions, ...).
// No library code reads an environment variable; tests build these structs instead of setting
// variables.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kta::engine {

using Environment = std::map<std::string, std::string>;

struct Settings {
  // kta's caches (reference outputs, compiled kernels): $KTA_CACHE_DIR, else
  // $XDG_CACHE_HOME/kta, else $HOME/.cache/kta, else $TMPDIR/kta-cache (or /tmp/kta-cache).
  std::filesystem::path cache_dir;
  // Every folder a kta on this machine caches in by default or as configured here (the ones
  // above, whichever is set): a sandboxed agent sees none of them.
  std::vector<std::filesystem::path> cache_dirs;
  std::filesystem::path home;  // $HOME: where the agent CLIs keep their login state
  // The .kta standard library ($KTA_STDLIB; empty: the one kta was built with) and extra module
  // folders searched before it ($KTA_PATH, ':'-separated).
  std::filesystem::path stdlib_dir;
  std::vector<std::filesystem::path> module_path;
  std::filesystem::path prompts_dir;          // $KTA_PROMPTS_DIR; empty: the stdlib's prompts/
  std::optional<double> agent_grace_s;        // $KTA_AGENT_GRACE: replaces agents' grace period
  std::string python;                         // $KTA_PYTHON: the interpreter of the python runner
  std::filesystem::path runner_script;        // $KTA_RUNNER: kta_runner.py
  std::string path;                           // $PATH: where programs are looked up
  std::filesystem::path worker;               // $KTA_WORKER: the kta-worker binary
  std::filesystem::path hip_plugin;           // $KTA_HIP_PLUGIN: libkta_hip.so
  std::string cxx;                            // $KTA_CXX: the cpu device's host compiler
  std::filesystem::path cpu_runtime_lib;      // $KTA_CPU_RUNTIME_LIB
  std::filesystem::path cpu_runtime_include;  // $KTA_CPU_RUNTIME_INCLUDE
  std::filesystem::path cuda_include_dir;     // $KTA_CUDA_INCLUDE_DIR: CUDA headers for hipRTC
  std::string hip_launcher_compiler;          // $KTA_HIP_LAUNCHER_COMPILER: nvcc or hipcc
  std::filesystem::path hip_include_dir;      // $KTA_HIP_INCLUDE_DIR: patched HIP headers
  std::filesystem::path launch_abi_include_dir;  // $KTA_LAUNCH_ABI_INCLUDE_DIR: <kta/launch.h>
  bool color = true;                             // false when $NO_COLOR is set
  // The whole environment, for the child processes that inherit it (command agents).
  Environment environment;
};

// Settings from an environment (variables set to "" count as unset). Unparsable numbers are
// named in *error and left unset.
Settings settings_from(const Environment& env, std::string* error = nullptr);

// This process's environment, as a map: the one place kta reads it.
Environment process_environment();

}  // namespace kta::engine
