// CodeStore: the hip device's compiled code, kept across runs where no worker reaches it. The
// hip device compiles in its worker (hipRTC, nvcc/hipcc for launchers), and the worker that runs
// candidate code must not hold the cache key, or it could forge entries that a later run loads
// as a reference or a baseline. So the engine keeps the cache: the worker names the code a
// request compiles to (a SHA-256 key over compiler, options, source and the source folder's
// content), builds it without loading it, and hands the bytes back; the engine tags the entry
// with the key of its cache folder (engine/ipc/cache_key.h) and gives it to any later worker to
// load. An entry that fails authentication (forged, truncated, another entry's bytes under this
// name) is rejected by name ("compile cache entry K.code fails authentication; recompiled") and
// built again. Only code built by a clean worker is kept: one in which no candidate code has run
// (no launcher loaded, no kernel run since it started), so code that ran there cannot have
// changed what the worker reports as built.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "engine/device/device.h"

namespace kta::engine::remote {

// One compile request to the worker, the exchange's code travelling beside it; nullopt with
// *failure when the worker did not answer.
using CompileSend =
    std::function<std::optional<CompileResult>(const CompileRequest&, std::string* failure)>;

class CodeStore {
 public:
  // `dir`: the hip device's folder of kta's cache (the engine's, never the worker's).
  explicit CodeStore(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // `request` compiled through the store: the worker keys it; a kept entry is handed to it to
  // load, else it builds the code, which is kept when `worker_clean`, and loads it. A device that
  // keys nothing (the request cannot be keyed) compiles as usual. A note on a rejected entry
  // starts the log ("kta note: ...", the step's record shows it).
  std::optional<CompileResult> compile(const CompileRequest& request, bool worker_clean,
                                       const CompileSend& send, std::string* failure) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace kta::engine::remote
