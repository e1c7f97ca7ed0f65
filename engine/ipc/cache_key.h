// CacheKey: the secret that authenticates kta's cache entries where they cross the trust
// boundary (reference outputs, compiled kernels). Candidate code runs in a worker that never sees
// the cache folders; should it reach one anyway (a machine without user namespaces, a second kta
// pointed at the same folder), an entry it wrote or changed fails authentication and is
// recomputed instead of trusted. The key is 32 random bytes in a 0600 file `.kta-key` of the
// cache folder, made once with O_EXCL; a tag is HMAC-SHA256 (OpenSSL) over the entry's name and
// its bytes, so an entry copied under another name fails too.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kta::engine::ipc {

class CacheKey {
 public:
  static constexpr size_t kTagBytes = 32;

  // The key of `dir` (created with the folder when missing); nullopt with *error when it cannot
  // be read or made, or has the wrong size or mode.
  static std::optional<CacheKey> open(const std::filesystem::path& dir, std::string* error);
  // A key from its bytes (tests).
  static CacheKey from_bytes(std::string bytes) { return CacheKey(std::move(bytes)); }

  // HMAC-SHA256 of `name` and `data`: kTagBytes raw bytes.
  std::string tag(std::string_view name, std::string_view data) const;
  // Whether `tag` is the tag of `name` and `data` (compared in constant time).
  bool verify(std::string_view name, std::string_view data, std::string_view tag) const;
  // The same over a file's bytes, streamed (a precompiled header is 43 MB: read whole into a
  // growing string it cost seconds of page faults on a VM); empty / false when it cannot be read.
  std::string tag_file(std::string_view name, const std::filesystem::path& file) const;
  bool verify_file(std::string_view name, const std::filesystem::path& file,
                   std::string_view tag) const;

  static constexpr const char* kFileName = ".kta-key";

 private:
  explicit CacheKey(std::string bytes) : key_(std::move(bytes)) {}
  std::string key_;
};

// SHA-256 of `bytes`, 64 hex digits: the name of a cache entry whose content candidate code
// chooses (a compiled module's source), so that no one can craft a source whose entry is another
// one's (a fast 64-bit content hash is no defence against a made collision).
std::string sha256_hex(std::string_view bytes);

// Reads a whole file into a string sized once from its length; false when it cannot be read.
bool read_whole_file(const std::filesystem::path& p, std::string* out);

// A cache entry `dir/name` as kept on disk: its bytes, then their tag under dir's key (HMAC of
// the name and the bytes). Written to a temporary file and renamed, so a reader never sees a torn
// entry; false when it cannot be written (a cache that cannot be written only costs a recompute).
bool store_tagged(const std::filesystem::path& dir, const std::string& name,
                  std::string_view bytes);

// What reading an entry found: its bytes (authenticated), nothing (a miss), or an entry that was
// rejected and removed: forged or changed, truncated, copied under another name, or unreadable
// under a key that cannot be opened.
struct TaggedEntry {
  std::optional<std::string> bytes;
  std::string rejected;  // "fails authentication" or "cannot be authenticated (<why>)"; else empty
};
TaggedEntry load_tagged(const std::filesystem::path& dir, const std::string& name);

}  // namespace kta::engine::ipc
