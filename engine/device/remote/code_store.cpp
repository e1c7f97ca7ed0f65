#include "engine/device/remote/code_store.h"

#include "engine/ipc/cache_key.h"

namespace kta::engine::remote {
namespace {

CompileRequest with_exchange(const CompileRequest& request, CodeExchange exchange) {
  CompileRequest r = request;
  r.exchange = exchange;
  return r;
}

std::string rejected_note(const std::string& name, const std::string& why) {
  return "compile cache entry " + name + " " + why + "; recompiled";
}

}  // namespace

std::optional<CompileResult> CodeStore::compile(const CompileRequest& request, bool worker_clean,
                                                const CompileSend& send,
                                                std::string* failure) const {
  std::optional<CompileResult> keyed = send(with_exchange(request, CodeExchange::key), failure);
  if (!keyed) return std::nullopt;
  // Not keyed (an unreadable source, a folder too large to digest): the worker compiles it as
  // any device does, and says what went wrong by name.
  if (!keyed->ok || keyed->code_key.empty())
    return send(with_exchange(request, CodeExchange::none), failure);
  const std::string name = keyed->code_key + ".code";
  std::string note;
  for (int attempt = 0; attempt < 2; ++attempt) {
    ipc::TaggedEntry kept = ipc::load_tagged(dir_, name);
    if (!kept.rejected.empty()) note = rejected_note(name, kept.rejected);
    CompileResult built;
    if (!kept.bytes) {
      std::optional<CompileResult> b = send(with_exchange(request, CodeExchange::build), failure);
      if (!b) return std::nullopt;
      built = std::move(*b);
      if (!built.ok) {  // a compile error: nothing to keep or load
        if (!note.empty()) built.log = "kta note: " + note + "\n" + built.log;
        built.code.clear();
        return built;
      }
      if (worker_clean && built.code_key == keyed->code_key)
        ipc::store_tagged(dir_, name, built.code);
    }
    CompileRequest load = with_exchange(request, CodeExchange::load);
    load.code = kept.bytes ? std::move(*kept.bytes) : std::move(built.code);
    std::optional<CompileResult> r = send(load, failure);
    if (!r) return std::nullopt;
    // An authentic entry the device cannot load (a driver that no longer takes it) is built
    // again, once.
    if (!r->ok && kept.bytes && attempt == 0) {
      std::error_code ec;
      std::filesystem::remove(dir_ / name, ec);
      note = "compile cache entry " + name + " cannot be loaded (" + r->error + "); recompiled";
      continue;
    }
    r->cache_hit = kept.bytes.has_value();
    r->code_key = keyed->code_key;
    r->seconds += built.seconds;
    if (!note.empty()) r->log = "kta note: " + note + "\n" + r->log;
    return r;
  }
  return std::nullopt;  // not reached: the second attempt always returns
}

}  // namespace kta::engine::remote
