// Building a HIP source into a loadable shared object for the cpu device: rewrite the source,
// append the generated trampoline, hash everything that affects the result, and compile with
// the host compiler unless the disk cache already holds the object. Cached objects (and the
// precompiled header) carry an HMAC tag (engine/ipc/cache_key.h) beside them, `<name>.tag`:
// an entry without a valid tag is rebuilt, never loaded. Builds run in the engine's process,
// which holds the key; the worker that runs candidate code only loads what the engine built.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::engine::cpu {

struct BuildResult {
  bool ok = false;
  std::string error;  // named reason when !ok
  std::string log;    // compiler output, paths relative to the source's folder
  std::filesystem::path library;
  bool cache_hit = false;
  bool synchronizes = false;
  std::vector<std::string> parameter_names;  // kernel mode, from the source
  // A cache entry that failed authentication and was rebuilt: "compile cache entry X.so fails
  // authentication; recompiled".
  std::string note;
};

// How a compile log carries a note for the step's record ("kta note: compile cache entry ...").
inline constexpr const char* kNotePrefix = "kta note: ";

BuildResult build_module(const CompileRequest& request, const DeviceOptions& options);

// The cpu runtime library, its headers and the host compiler: DeviceOptions::locations and
// ::compiler when set, else the build's.
std::string runtime_library_path(const DeviceOptions& options);
std::string runtime_include_dir(const DeviceOptions& options);
std::string host_compiler(const DeviceOptions& options);

// Hex digest (128 bits) of `data`; not cryptographic, for cache keys.
std::string content_hash(const std::string& data);

}  // namespace kta::engine::cpu
