// Launcher mode on the hip device: the candidate's whole HIP translation unit, compiled to a
// shared library by `nvcc -x cu` with kta's patched HIP headers (NVIDIA) or hipcc (AMD), cached
// on disk by content, then loaded into the worker.
#pragma once

#include <filesystem>
#include <string>

#include "engine/device/device.h"

namespace kta::engine::hip {

struct LauncherBuild {
  CompileResult result;           // ok / error / log / seconds / cache_hit
  std::filesystem::path library;  // the built .so when ok
  // What the code is: compiler, flags, source and the content of the source's folder (SHA-256,
  // the same wherever the folder lies); empty when the folder is too large to key.
  std::string key;
};

// `arch`: "sm_90" or "gfx90a". `key_only`: compute `key` and stop (nothing is built).
LauncherBuild build_launcher(const CompileRequest& request, const std::string& arch,
                             const DeviceOptions& options, bool key_only = false);

}  // namespace kta::engine::hip
