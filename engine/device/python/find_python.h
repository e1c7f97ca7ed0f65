// Which Python interpreter and which runner script the python runner uses. The rule
// (docs/python.md): $KTA_PYTHON when set, else the first `python3` on PATH that can import the
// needed modules, else /usr/bin/python3 (Debian's, where python3-torch installs). The runner script
// is found like the worker: $KTA_RUNNER, next to the running binary, then in the source tree, and
// its sibling scripts likewise. The variables reach here through Settings (engine/settings), as a
// PythonSearch and a path.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kta::engine {

// Where find_python looks.
struct PythonSearch {
  std::string preferred;  // tried first ($KTA_PYTHON)
  std::string path;       // ':'-separated folders searched for python3 ($PATH)
  auto operator<=>(const PythonSearch&) const = default;
};

struct PythonChoice {
  std::string path;                // empty when none fits
  std::string error;               // names every interpreter tried and why it did not fit
  std::vector<std::string> tried;  // "path (reason)" per interpreter looked at
};

// Probes without importing (importlib.util.find_spec), so a probe costs ~20 ms, not a torch
// import. Cached per process, search and module list.
PythonChoice find_python(const PythonSearch& search,
                         const std::vector<std::string>& modules = {"torch"});

// The runner script (engine/device/python/kta_runner.py): `configured` ($KTA_RUNNER) when set,
// else found; empty when not found.
std::filesystem::path find_runner_script(const std::filesystem::path& configured = {});

// Another script of the runner's folder (kta_probe_module.py), found where the runner is: beside
// `configured_runner` ($KTA_RUNNER) when set, next to the running binary (or in
// ../share/kta/runner/), then in the source tree; empty when not found.
std::filesystem::path find_runner_file(const std::string& name,
                                       const std::filesystem::path& configured_runner = {});

}  // namespace kta::engine
