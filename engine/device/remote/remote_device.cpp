#include "engine/device/remote/remote_device.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

#include "engine/device/cpu/cpu_device.h"
#include "engine/device/remote/asan_report.h"
#include "engine/device/remote/protocol.h"
#include "engine/ipc/child_status.h"

#ifndef KTA_DEFAULT_WORKER
#define KTA_DEFAULT_WORKER "kta-worker"
#endif

namespace fs = std::filesystem;

namespace kta::engine::remote {
namespace {

std::string gib(size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3g GiB", double(bytes) / double(size_t(1) << 30));
  return buf;
}

}  // namespace

std::string find_worker(const DeviceOptions& o) {
  if (!o.worker.empty()) return o.worker.string();
  if (const char* w = std::getenv("KTA_WORKER"); w != nullptr && *w != 0) return w;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(self.parent_path() / "kta-worker", ec))
    return (self.parent_path() / "kta-worker").string();
  return KTA_DEFAULT_WORKER;
}

RemoteDevice::RemoteDevice(const DeviceOptions& options) : options_(options) {
  worker_.set_describe(
      [this](int status, const std::string& log) { return why_worker_ended(status, log); });
  start(false);
}

RemoteDevice::~RemoteDevice() {
  stop();
  for (auto& [id, s] : buffers_) ipc::release_shared_buffer(s);
}

// `kta-worker --serve`, with AddressSanitizer preloaded for a sanitized worker; throws when the
// sanitizer runtime is missing.
ipc::SpawnSpec RemoteDevice::worker_command(bool asan) const {
  ipc::SpawnSpec spec;
  spec.argv = {find_worker(options_), "--serve"};
  spec.env.emplace();
  for (const std::string& e : ipc::current_environment()) {
    if (e.rfind("LD_PRELOAD=", 0) != 0 && e.rfind("ASAN_OPTIONS=", 0) != 0) spec.env->push_back(e);
  }
  if (!asan) return spec;
  std::string error;
  std::string runtime = cpu::sanitizer_runtime(options_, &error);
  if (runtime.empty()) throw std::runtime_error(error);
  spec.env->push_back("LD_PRELOAD=" + runtime);
  // Fibers switch stacks: no use-after-return tracking; one report, then exit.
  spec.env->push_back(
      "ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0:halt_on_error=1:"
      "allocator_may_return_null=1:print_summary=1:symbolize=1");
  return spec;
}

void RemoteDevice::start(bool asan) {
  std::string why = worker_.start(worker_command(asan), [this] { return greet(); });
  if (!why.empty()) throw std::runtime_error(why);
  asan_ = asan;
  ++started_;
}

std::string RemoteDevice::greet() {
  std::string failure;
  auto hello = request({{"op", "hello"}, {"options", to_json(options_)}}, 60, &failure);
  if (!hello || !hello->value("ok", false))
    return "the worker did not start: " + (hello ? hello->value("error", "no reply") : failure);
  info_ = device_info_from_json(hello->at("info"));
  for (auto& [id, s] : buffers_) {
    auto r = request({{"op", "map"}, {"id", id}, {"bytes", s.bytes}}, 30, &failure, s.fd);
    if (!r || !r->value("ok", false))
      return "the worker cannot map buffer memory: " + (r ? r->value("error", "") : failure);
  }
  return {};
}

std::string RemoteDevice::ensure(bool asan) {
  try {
    if (running() && (asan_ || !asan)) return {};
    // A sanitized module needs a worker with AddressSanitizer preloaded; it stays that way,
    // since other modules run in it too.
    start(asan || asan_);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string RemoteDevice::why_worker_ended(int status, const std::string& log) const {
  std::string asan = summarize_asan_report(log);
  if (!asan.empty()) return asan;
  if (log.find("std::bad_alloc") != std::string::npos ||
      log.find("out of memory") != std::string::npos)
    return "out of memory (limit " + gib(options_.memory_limit) + ")";
  std::string why = ipc::exit_text("worker", status);
  // The last line the worker printed often names the cause (an abort message, a C++ exception).
  std::string last = ipc::last_line(log);
  if (!last.empty()) why += ": " + last;
  return why;
}

std::optional<nlohmann::json> RemoteDevice::request(const json& q, double timeout_s,
                                                    std::string* failure, int fd) {
  if (q.value("op", "") != "map") worker_.clear_log();
  ipc::Reply r = worker_.request(q, timeout_s, fd);
  if (!r) *failure = r.error;
  return std::move(r.message);
}

Buffer RemoteDevice::alloc(size_t bytes) {
  Shared s = ipc::create_shared_buffer(bytes, "kta-buffer");
  uint64_t id = next_buffer_++;
  buffers_[id] = s;
  if (running()) {
    std::string failure;
    // "fresh": the memory is all zeros, so the worker zero-fills the device copy instead of
    // copying zeros across (a page-faulting host-to-device copy per allocation).
    auto r =
        request({{"op", "map"}, {"id", id}, {"bytes", bytes}, {"fresh", true}}, 30, &failure, s.fd);
    if (r && !r->value("ok", false)) {
      buffers_.erase(id);
      ipc::release_shared_buffer(s);
      throw std::runtime_error(r->value("error", "the worker cannot map the buffer"));
    }
    // A lost worker maps every buffer when the next one starts.
  }
  return Buffer{id, bytes};
}

void RemoteDevice::free(Buffer b) {
  auto it = buffers_.find(b.id);
  if (it == buffers_.end()) return;
  if (running()) {
    std::string failure;
    request({{"op", "unmap"}, {"id", b.id}}, 30, &failure);
  }
  ipc::release_shared_buffer(it->second);
  buffers_.erase(it);
}

const RemoteDevice::Shared& RemoteDevice::shared(Buffer b, size_t bytes) const {
  auto it = buffers_.find(b.id);
  if (it == buffers_.end()) throw std::invalid_argument("unknown buffer " + std::to_string(b.id));
  if (bytes > it->second.bytes)
    throw std::invalid_argument("access of " + std::to_string(bytes) + " bytes to a " +
                                std::to_string(it->second.bytes) + "-byte buffer");
  return it->second;
}

// The shared memory is the authoritative copy while no worker runs: a (re)started worker stages
// every buffer from it. A device with memory of its own (hip) is kept in step explicitly.
void RemoteDevice::upload(Buffer dst, const void* src, size_t bytes) {
  std::memcpy(shared(dst, bytes).data, src, bytes);
  if (staged()) stage({{"op", "upload"}, {"id", dst.id}});
}
void RemoteDevice::download(void* dst, Buffer src, size_t bytes) {
  const Shared& s = shared(src, bytes);
  // When the worker is gone the device copy is lost; the shared memory then still holds what was
  // last staged (for outputs, the poison written before the launch), which fails any check.
  if (staged()) stage({{"op", "download"}, {"id", src.id}});
  std::memcpy(dst, s.data, bytes);
}
void RemoteDevice::fill(Buffer dst, uint8_t byte) {
  const Shared& s = shared(dst, 0);
  std::memset(s.data, byte, s.bytes);
  if (staged()) stage({{"op", "fill"}, {"id", dst.id}, {"byte", byte}});
}

void RemoteDevice::stage(const json& q) {
  if (!running()) return;
  std::string failure;
  request(q, options_.launch_timeout_s, &failure);
}

LaunchResult RemoteDevice::checked(LaunchResult r) {
  // A GPU context that saw a device error is unusable: the next request gets a fresh worker.
  if (r.context_lost) {
    stop();
    r.device_restarted = true;
  }
  return r;
}

CompileResult RemoteDevice::compile(const CompileRequest& request_in) {
  CompileRequest req = request_in;
  std::error_code ec;
  req.source = fs::absolute(req.source, ec);
  CompileResult out;
  std::string err = ensure(req.options.sanitize);
  if (!err.empty()) {
    out.error = err;
    return out;
  }
  std::string failure;
  auto r = request({{"op", "compile"}, {"request", to_json(req)}}, options_.compile_timeout_s + 10,
                   &failure);
  if (!r) {
    out.error = "worker failed while compiling: " + failure;
    return out;
  }
  out = compile_result_from_json(*r);
  if (out.ok) {
    uint64_t id = next_module_++;
    modules_[id] = ModuleRecord{req, out.module, worker_.generation()};
    out.module = id;
  }
  return out;
}

std::string RemoteDevice::load(ModuleRecord& m, uint64_t* remote) {
  std::string err = ensure(m.request.options.sanitize);
  if (!err.empty()) return err;
  if (m.generation != worker_.generation()) {
    std::string failure;
    auto r = request({{"op", "compile"}, {"request", to_json(m.request)}},
                     options_.compile_timeout_s + 10, &failure);
    if (!r) return "worker failed while reloading the module: " + failure;
    CompileResult c = compile_result_from_json(*r);
    if (!c.ok) return "cannot reload the module: " + c.error;
    m.remote = c.module;
    m.generation = worker_.generation();
  }
  *remote = m.remote;
  return {};
}

LaunchResult RemoteDevice::lost(const std::string& why) {
  LaunchResult r;
  r.ok = false;
  r.error = why;
  r.device_restarted = true;
  return r;
}

// Runs request `q` against a module (reloaded into a fresh worker when needed). For timed
// requests the reply is a TimedResult (status, seconds, clocks); otherwise it is the status itself.
TimedResult RemoteDevice::run_module(uint64_t module,
                                     const std::function<json(uint64_t remote)>& make_request,
                                     double timeout_s, bool timed) {
  TimedResult t;
  auto it = modules_.find(module);
  if (it == modules_.end()) {
    t.status = lost("unknown module " + std::to_string(module));
    return t;
  }
  uint64_t remote = 0;
  std::string err = load(it->second, &remote);
  if (!err.empty()) {
    t.status = lost(err);
    return t;
  }
  std::string failure;
  auto r = request(make_request(remote), timeout_s, &failure);
  if (!r) {
    t.status = lost(failure);
    return t;
  }
  if (timed) {
    t = timed_result_from_json(*r);
    t.status = checked(t.status);
  } else {
    t.status = checked(launch_result_from_json(*r));
  }
  return t;
}

LaunchResult RemoteDevice::run(const Invocation& invocation) {
  auto make = [&](uint64_t remote) {
    json inv = to_json(invocation);
    inv["module"] = remote;
    return json{{"op", "run"}, {"invocation", std::move(inv)}};
  };
  return run_module(invocation.module, make, options_.launch_timeout_s, false).status;
}

TimedResult RemoteDevice::timed(std::span<const Invocation> batch, bool flush) {
  if (batch.empty()) return TimedResult{lost("empty batch"), 0};
  auto make = [&](uint64_t remote) {
    json calls = json::array();
    for (const Invocation& inv : batch) {
      json j = to_json(inv);
      j["module"] = inv.module == batch.front().module ? remote : 0;  // one module per batch
      calls.push_back(std::move(j));
    }
    return json{{"op", "timed"}, {"batch", std::move(calls)}, {"flush", flush}};
  };
  double timeout = options_.launch_timeout_s * static_cast<double>(batch.size()) + 5;
  return run_module(batch.front().module, make, timeout, true);
}

void RemoteDevice::synchronize() {
  if (!running()) return;
  std::string failure;
  request({{"op", "sync"}}, options_.launch_timeout_s, &failure);
}

}  // namespace kta::engine::remote
