// Which Python interpreter and which runner script the python runner uses. The rule
// (docs/python.md): $KTA_PYTHON when set, else the first `python3` on PATH that can import the
// needed modules, else /usr/bin/python3 (Debian's, where python3-torch installs). The runner script
// is found like the worker: $KTA_RUNNER, next to the running binary, then in the source tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kta::engine {

struct PythonChoice {
  std::string path;                // empty when none fits
  std::string error;               // names every interpreter tried and why it did not fit
  std::vector<std::string> tried;  // "path (reason)" per interpreter looked at
};

// Probes without importing (importlib.util.find_spec), so a probe costs ~20 ms, not a torch
// import. Cached per process and module list.
PythonChoice find_python(const std::vector<std::string>& modules = {"torch"});

// The runner script (engine/device/python/kta_runner.py); empty when not found.
std::filesystem::path find_runner_script();

}  // namespace kta::engine
