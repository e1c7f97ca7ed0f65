#include "engine/ipc/cache_key.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "engine/ipc/unique_fd.h"

namespace kta::engine::ipc {
namespace {

constexpr size_t kKeyBytes = 32;

std::string errno_text() { return std::strerror(errno); }

// Makes the key file with fresh random bytes; false when another process made it first (EEXIST)
// or it cannot be written (*error says why).
bool create_key(const std::filesystem::path& file, std::string* error) {
  UniqueFd fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (!fd) {
    if (errno != EEXIST) *error = "cannot create " + file.string() + ": " + errno_text();
    return false;
  }
  char bytes[kKeyBytes];
  if (getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes) ||
      ::write(fd.get(), bytes, sizeof bytes) != ssize_t(sizeof bytes)) {
    *error = "cannot write " + file.string() + ": " + errno_text();
    ::unlink(file.c_str());
    return false;
  }
  return true;
}

}  // namespace

bool read_whole_file(const std::filesystem::path& p, std::string* out) {
  UniqueFd fd(::open(p.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0) return false;
  std::string bytes;
  bytes.resize(size_t(st.st_size));
  size_t done = 0;
  for (;;) {
    if (done == bytes.size()) bytes.resize(done + 65536);  // grew since the fstat
    ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    done += size_t(n);
  }
  bytes.resize(done);
  *out = std::move(bytes);
  return true;
}

std::optional<CacheKey> CacheKey::open(const std::filesystem::path& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path file = dir / kFileName;
  std::string made_error;
  if (!create_key(file, &made_error) && !made_error.empty()) {
    *error = made_error;
    return std::nullopt;
  }
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    *error = "cannot read " + file.string() + ": " + errno_text();
    return std::nullopt;
  }
  // A key others can read or write authenticates nothing.
  if ((st.st_mode & 077) != 0) {
    *error = file.string() + " is readable or writable by others (mode must be 0600)";
    return std::nullopt;
  }
  std::string bytes;
  if (!read_whole_file(file, &bytes) || bytes.size() != kKeyBytes) {
    *error = file.string() + " is not a " + std::to_string(kKeyBytes) + "-byte key";
    return std::nullopt;
  }
  return CacheKey(std::move(bytes));
}

namespace {

// An HMAC-SHA256 computation under `key`, fed in pieces.
class Hmac {
 public:
  explicit Hmac(const std::string& key) {
    mac_ = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    ctx_ = mac_ != nullptr ? EVP_MAC_CTX_new(mac_) : nullptr;
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0),
                           OSSL_PARAM_construct_end()};
    ok_ = ctx_ != nullptr && EVP_MAC_init(ctx_, bytes(key), key.size(), params) == 1;
  }
  ~Hmac() {
    EVP_MAC_CTX_free(ctx_);
    EVP_MAC_free(mac_);
  }
  Hmac(const Hmac&) = delete;
  Hmac& operator=(const Hmac&) = delete;

  void update(std::string_view v) { ok_ = ok_ && EVP_MAC_update(ctx_, bytes(v), v.size()) == 1; }
  void fail() { ok_ = false; }
  // The tag: CacheKey::kTagBytes raw bytes, or empty when any step failed (it verifies nothing).
  std::string final() {
    unsigned char out[EVP_MAX_MD_SIZE];
    size_t len = 0;
    ok_ = ok_ && EVP_MAC_final(ctx_, out, &len, sizeof out) == 1;
    return ok_ && len == CacheKey::kTagBytes ? std::string(reinterpret_cast<const char*>(out), len)
                                             : std::string();
  }

 private:
  static const unsigned char* bytes(std::string_view v) {
    return reinterpret_cast<const unsigned char*>(v.data());
  }
  EVP_MAC* mac_ = nullptr;
  EVP_MAC_CTX* ctx_ = nullptr;
  bool ok_ = false;
};

// The name's length first, so that (name, data) pairs cannot be shifted into one another.
std::string tag_header(std::string_view name) {
  return std::to_string(name.size()) + ":" + std::string(name) + ":";
}

}  // namespace

std::string CacheKey::tag(std::string_view name, std::string_view data) const {
  Hmac h(key_);
  h.update(tag_header(name));
  h.update(data);
  return h.final();
}

std::string CacheKey::tag_file(std::string_view name, const std::filesystem::path& file) const {
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return {};
  Hmac h(key_);
  h.update(tag_header(name));
  std::string chunk(size_t(1) << 20, '\0');
  for (;;) {
    ssize_t n = ::read(fd.get(), chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) h.fail();
    if (n <= 0) break;
    h.update(std::string_view(chunk.data(), size_t(n)));
  }
  return h.final();
}

bool CacheKey::verify_file(std::string_view name, const std::filesystem::path& file,
                           std::string_view t) const {
  std::string expected = tag_file(name, file);
  return !expected.empty() && t.size() == expected.size() &&
         CRYPTO_memcmp(expected.data(), t.data(), t.size()) == 0;
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), out, &len, EVP_sha256(), nullptr) != 1) return {};
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) {
    hex += kHex[out[i] >> 4];
    hex += kHex[out[i] & 15];
  }
  return hex;
}

bool store_tagged(const std::filesystem::path& dir, const std::string& name,
                  std::string_view bytes) {
  std::string error;
  std::optional<CacheKey> auth = CacheKey::open(dir, &error);
  if (!auth) return false;
  const std::string tag = auth->tag(name, bytes);
  if (tag.empty()) return false;
  std::error_code ec;
  // Unique per process and thread: jobs of one engine may store the same entry at once.
  static std::atomic<unsigned> next{0};
  const std::filesystem::path tmp =
      dir / (name + ".tmp." + std::to_string(getpid()) + "." + std::to_string(next++));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out << tag;
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, dir / name, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

TaggedEntry load_tagged(const std::filesystem::path& dir, const std::string& name) {
  TaggedEntry e;
  std::string file;
  if (!read_whole_file(dir / name, &file)) return e;
  std::string error;
  std::optional<CacheKey> auth = CacheKey::open(dir, &error);
  const size_t tag = CacheKey::kTagBytes;
  std::string_view body(file.data(), file.size() >= tag ? file.size() - tag : 0);
  if (auth && file.size() >= tag &&
      auth->verify(name, body, std::string_view(file).substr(file.size() - tag))) {
    e.bytes = std::string(body);
    return e;
  }
  e.rejected = auth ? "fails authentication" : "cannot be authenticated (" + error + ")";
  std::error_code ec;
  std::filesystem::remove(dir / name, ec);
  return e;
}

bool CacheKey::verify(std::string_view name, std::string_view data, std::string_view t) const {
  std::string expected = tag(name, data);
  return !expected.empty() && t.size() == expected.size() &&
         CRYPTO_memcmp(expected.data(), t.data(), t.size()) == 0;
}

}  // namespace kta::engine::ipc
