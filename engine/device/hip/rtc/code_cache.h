// kta's on-disk cache of compiled kernels, keyed by a hash (lang::ContentHasher) of everything
// that determines the code (source text, options, architecture, compiler and runtime versions).
// Entries are written to a temporary file and renamed, so concurrent workers never read a torn
// entry.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kta::engine::hip {

struct CachedCode {
  std::string format;        // "cubin", "ptx", "hsaco"
  std::string lowered_name;  // the kernel's symbol in the code object
  std::string log;           // compiler output of the compile that produced it (warnings)
  std::string code;
};

// The cache folder for kernels: `dir` when set, else $KTA_CACHE_DIR, $XDG_CACHE_HOME/kta,
// ~/.cache/kta, each with "/hip" appended.
std::filesystem::path kernel_cache_dir(const std::filesystem::path& dir);

std::optional<CachedCode> cache_load(const std::filesystem::path& dir, const std::string& key);
// Best effort: a cache that cannot be written only costs a recompile.
void cache_store(const std::filesystem::path& dir, const std::string& key, const CachedCode& entry);

}  // namespace kta::engine::hip
