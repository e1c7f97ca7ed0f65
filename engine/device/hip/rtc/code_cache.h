// kta's on-disk cache of compiled kernels, keyed by a hash (lang::ContentHasher) of everything
// that determines the code (source text, options, architecture, compiler and runtime versions).
// Entries are written to a temporary file and renamed, so concurrent workers never read a torn
// entry, and carry an HMAC tag under the folder's key (engine/ipc/cache_key.h): an entry written
// without the key fails authentication and is recompiled. A worker in its own view
// (engine/ipc/worker_view.h) has a private cache folder of its own, key included.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kta::engine::hip {

struct CachedCode {
  std::string format;        // "cubin", "ptx", "hsaco"
  std::string lowered_name;  // the kernel's symbol in the code object
  std::string log;           // compiler output of the compile that produced it (warnings)
  std::string code;
};

// The cache folder for kernels: cache_root(dir) (engine/device/device.h) with "/hip" appended.
std::filesystem::path kernel_cache_dir(const std::filesystem::path& dir);

// An entry's bytes as the cache keeps them (and as the hip device hands compiled code to the
// engine, engine/device/remote/code_store.h); decode_code is nullopt for anything else.
std::string encode_code(const CachedCode& entry);
std::optional<CachedCode> decode_code(std::string_view bytes);

// What code compiled from a source in `dir` may include of that folder: a digest of its regular
// files two folder levels deep (as a worker's staged copy holds them: engine/ipc/worker_view.h),
// by relative name and content. Keys use it in place of the folder's path, so a key names the
// same code wherever the folder lies (a worker's copy differs on every run) and a changed header
// is another key. Empty when the folder holds more than 64 MiB: such code is not shared.
std::string source_folder_digest(const std::filesystem::path& dir);

// nullopt on a miss; an entry that fails authentication is removed, and *note names it
// ("compile cache entry K.code fails authentication; recompiled").
std::optional<CachedCode> cache_load(const std::filesystem::path& dir, const std::string& key,
                                     std::string* note = nullptr);
// Best effort: a cache that cannot be written only costs a recompile.
void cache_store(const std::filesystem::path& dir, const std::string& key, const CachedCode& entry);

}  // namespace kta::engine::hip
