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
};

// `arch`: "sm_90" or "gfx90a".
LauncherBuild build_launcher(const CompileRequest& request, const std::string& arch,
                             const DeviceOptions& options);

}  // namespace kta::engine::hip
