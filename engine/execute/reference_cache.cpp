#include "engine/execute/reference_cache.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>
#include <thread>

#include "engine/check/poison.h"
#include "engine/execute/bindings.h"
#include "engine/ipc/cache_key.h"
#include "engine/plan/plan.h"
#include "lang/hash.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {
constexpr char kMagic[8] = {'k', 't', 'a', 'r', 'e', 'f', '2', '\n'};
}

std::string ReferenceCache::key(const model::Task& task, const model::ShapePoint& point,
                                uint64_t seed, const std::string& device_kind) {
  lang::ContentHasher h;
  h.field("task-hash", task.content_hash).field("task", task.name);
  h.field("reference", task.reference.file.filename().string() + ":" + task.reference.symbol);
  h.field("point", format_point(point)).add(static_cast<int64_t>(seed));
  h.field("device", device_kind);
  return h.hex();
}

std::optional<ipc::CacheKey> ReferenceCache::auth(std::string* note) const {
  std::string error;
  std::optional<ipc::CacheKey> k = ipc::CacheKey::open(dir_, &error);
  if (!k && note != nullptr) *note = "reference cache off: " + error;
  return k;
}

// The entry's bytes once its tag checks out: the magic, then per tensor its dtype, shape, size,
// digest and bytes, then the tag (HMAC-SHA256 of the entry's name and all before it).
std::optional<HostSet> ReferenceCache::load(const std::string& key, const model::Task& task,
                                            std::string* note) const {
  if (dir_.empty()) return std::nullopt;
  const std::string name = key + ".bin";
  std::string file;
  if (!ipc::read_whole_file(dir_ / name, &file)) return std::nullopt;
  std::optional<ipc::CacheKey> k = auth(note);
  if (!k) return std::nullopt;
  const size_t tag = ipc::CacheKey::kTagBytes;
  std::string_view body(file.data(), file.size() >= tag ? file.size() - tag : 0);
  if (file.size() < tag + 8 ||
      !k->verify(name, body, std::string_view(file).substr(file.size() - tag))) {
    if (note != nullptr)
      *note = "reference cache entry " + name + " fails authentication; recomputed";
    std::error_code ec;
    fs::remove(dir_ / name, ec);
    return std::nullopt;
  }
  std::istringstream in{std::string(body)};
  return parse(in, task);
}

std::optional<HostSet> ReferenceCache::parse(std::istream& in, const model::Task& task) {
  char magic[8];
  if (!in.read(magic, 8) || std::string_view(magic, 8) != std::string_view(kMagic, 8))
    return std::nullopt;
  HostSet set(task.tensors.size());
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    uint64_t ndim = 0, bytes = 0, digest = 0;
    int32_t dtype = 0;
    if (!in.read(reinterpret_cast<char*>(&dtype), sizeof dtype)) return std::nullopt;
    if (!in.read(reinterpret_cast<char*>(&ndim), sizeof ndim) || ndim > 64) return std::nullopt;
    set[i].dtype = static_cast<model::DType>(dtype);
    set[i].shape.resize(ndim);
    for (auto& d : set[i].shape) {
      if (!in.read(reinterpret_cast<char*>(&d), sizeof d)) return std::nullopt;
    }
    if (!in.read(reinterpret_cast<char*>(&bytes), sizeof bytes)) return std::nullopt;
    if (!in.read(reinterpret_cast<char*>(&digest), sizeof digest)) return std::nullopt;
    if (bytes > (uint64_t{1} << 36)) return std::nullopt;
    set[i].bytes.resize(bytes);
    if (bytes && !in.read(reinterpret_cast<char*>(set[i].bytes.data()),
                          static_cast<std::streamsize>(bytes))) {
      return std::nullopt;
    }
    // Outputs carry the task's dtype; the other slots are empty (whatever dtype an empty
    // tensor has: an f16 task's inputs were once refused here, so every entry of a task with
    // non-f32 inputs missed, run after run).
    if (is_output(task.tensors[i]) ? set[i].dtype != task.tensors[i].dtype : bytes != 0)
      return std::nullopt;
    if (bytes && digest_bytes(set[i].bytes.data(), bytes) != digest) return std::nullopt;
  }
  return set;
}

void ReferenceCache::store(const std::string& key, const HostSet& outputs) const {
  if (dir_.empty()) return;
  std::optional<ipc::CacheKey> k = auth(nullptr);
  if (!k) return;
  std::ostringstream body;
  body.write(kMagic, 8);
  for (const auto& t : outputs) {
    int32_t dtype = static_cast<int32_t>(t.dtype);
    uint64_t ndim = t.shape.size(), bytes = t.bytes.size();
    uint64_t digest = bytes ? digest_bytes(t.bytes.data(), bytes) : 0;
    body.write(reinterpret_cast<const char*>(&dtype), sizeof dtype);
    body.write(reinterpret_cast<const char*>(&ndim), sizeof ndim);
    for (auto d : t.shape) body.write(reinterpret_cast<const char*>(&d), sizeof d);
    body.write(reinterpret_cast<const char*>(&bytes), sizeof bytes);
    body.write(reinterpret_cast<const char*>(&digest), sizeof digest);
    body.write(reinterpret_cast<const char*>(t.bytes.data()), static_cast<std::streamsize>(bytes));
  }
  write(key + ".bin", body.str(), *k);
}

void ReferenceCache::write(const std::string& name, const std::string& data,
                           const ipc::CacheKey& k) const {
  const std::string tag = k.tag(name, data);
  if (tag.empty()) return;
  std::error_code ec;
  // Write then rename: a concurrent reader or a killed writer never sees half a file.
  fs::path tmp = dir_ / (name + ".tmp." + std::to_string(::getpid()) + "." +
                         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return;
    out << data << tag;
    if (!out) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, dir_ / name, ec);
  if (ec) fs::remove(tmp, ec);
}

std::string ReferenceCache::task_check_key(const model::Task& task,
                                           const std::vector<model::ShapePoint>& points, int seeds,
                                           const std::string& device_kind) {
  lang::ContentHasher h;
  h.field("verdict", "task check 1").field("task-hash", task.content_hash).field("task", task.name);
  h.field("reference", task.reference.file.filename().string() + ":" + task.reference.symbol);
  for (const auto& p : points) h.field("point", format_point(p));
  h.field("seeds", std::to_string(seeds)).field("device", device_kind);
  return h.hex();
}

namespace {
constexpr std::string_view kVerdict = "kta task check: sound\n";
}

bool ReferenceCache::recall(const std::string& key) const {
  if (dir_.empty()) return false;
  const std::string name = key + ".ok";
  std::string file;
  if (!ipc::read_whole_file(dir_ / name, &file)) return false;
  std::optional<ipc::CacheKey> k = auth(nullptr);
  const size_t tag = ipc::CacheKey::kTagBytes;
  if (!k || file.size() != kVerdict.size() + tag || !file.starts_with(kVerdict)) return false;
  return k->verify(name, kVerdict, std::string_view(file).substr(kVerdict.size()));
}

void ReferenceCache::remember(const std::string& key) const {
  if (dir_.empty()) return;
  std::optional<ipc::CacheKey> k = auth(nullptr);
  if (k) write(key + ".ok", std::string(kVerdict), *k);
}

}  // namespace kta::engine
