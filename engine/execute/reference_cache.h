// Reference outputs cached on disk by content hash, across runs: the reference runs once per
// (task content, reference entry, shape point, seed, device kind) ever. The cache lives in the
// engine's cache folder, never in a workspace, and out of the worker's view, so candidate code
// can neither read nor write it; each entry carries an HMAC tag (engine/ipc/cache_key.h) under
// the folder's key, so an entry written by anyone without the key (a forged reference output)
// fails authentication by name and the reference runs again.
#pragma once

#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "engine/execute/bindings.h"
#include "engine/ipc/cache_key.h"

namespace kta::engine {

class ReferenceCache {
 public:
  // An empty folder disables the cache (every lookup misses, stores are dropped).
  explicit ReferenceCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  static std::string key(const model::Task& task, const model::ShapePoint& point, uint64_t seed,
                         const std::string& device_kind);
  // Outputs (and inouts) per task tensor, others empty; nullopt on a miss or a damaged entry.
  // An entry that fails authentication is removed and *note names it ("reference cache entry
  // K.bin fails authentication; recomputed").
  std::optional<HostSet> load(const std::string& key, const model::Task& task,
                              std::string* note = nullptr) const;
  void store(const std::string& key, const HostSet& outputs) const;

  // A verdict that follows from references alone (prepare's task check: the task is not
  // degenerate), kept under `key` as an authenticated mark: `recall` is true only for a mark
  // written with this folder's key, so a planted file never skips a check.
  static std::string task_check_key(const model::Task& task,
                                    const std::vector<model::ShapePoint>& points, int seeds,
                                    const std::string& device_kind);
  bool recall(const std::string& key) const;
  void remember(const std::string& key) const;

 private:
  std::optional<ipc::CacheKey> auth(std::string* note) const;
  static std::optional<HostSet> parse(std::istream& in, const model::Task& task);
  // Writes `data` and its tag to `name` through a temporary file (never half a file).
  void write(const std::string& name, const std::string& data, const ipc::CacheKey& k) const;
  std::filesystem::path dir_;
};

}  // namespace kta::engine
