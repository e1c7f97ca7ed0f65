// Reference outputs cached on disk by content hash, across runs: the reference runs once per
// (task content, reference entry, shape point, seed, device kind) ever. The cache lives in the
// engine's cache folder, never in a workspace, so the candidate cannot read it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "engine/execute/bindings.h"

namespace kta::engine {

class ReferenceCache {
 public:
  // An empty folder disables the cache (every lookup misses, stores are dropped).
  explicit ReferenceCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  static std::string key(const model::Task& task, const model::ShapePoint& point, uint64_t seed,
                         const std::string& device_kind);
  // Outputs (and inouts) per task tensor, others empty; nullopt on a miss or a damaged entry.
  std::optional<HostSet> load(const std::string& key, const model::Task& task) const;
  void store(const std::string& key, const HostSet& outputs) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace kta::engine
