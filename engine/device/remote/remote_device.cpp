#include "engine/device/remote/remote_device.h"

#include <fcntl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "engine/device/cpu/cpu_device.h"
#include "engine/device/cpu/kernel_build.h"
#include "engine/device/remote/asan_report.h"
#include "engine/device/remote/code_store.h"
#include "engine/device/remote/protocol.h"
#include "engine/ipc/child_status.h"
#include "engine/ipc/unique_fd.h"
#include "engine/ipc/worker_view.h"

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

void warn_unisolated(const ipc::WorkerIsolation& isolation) {
  static std::once_flag once;
  std::call_once(once, [&] {
    std::fprintf(stderr,
                 "kta: warning: candidate code runs without a view of its own (%s): it can read "
                 "what the engine can\n",
                 isolation.why.c_str());
  });
}

}  // namespace

std::string find_worker(const DeviceOptions& o) {
  if (!o.worker.empty()) return o.worker.string();
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

namespace {

// What the GPU runtime in the worker reads of the engine's environment (where its libraries
// are, which GPUs it may use): all the worker gets of it. kta's own configuration reaches the
// worker in its hello (DeviceOptions::locations).
const std::vector<std::string> kWorkerVariables = {"LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
                                                   "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                                                   "HIP_PLATFORM"};

// The files of kta a worker reads: its binary and what lies beside it (the cpu runtime, the hip
// plugin and its header folders), the configured locations, and the staged sources.
std::vector<fs::path> worker_files(const fs::path& worker, const DeviceOptions& o,
                                   const fs::path& staging) {
  const fs::path dir = worker.parent_path();
  std::vector<fs::path> files = {worker,
                                 cpu::runtime_library_path(o),
                                 dir / "libkta_cpu_runtime.so",
                                 dir / "libkta_hip.so",
                                 dir / "hip-launch",
                                 dir / "hip-nvidia",
                                 staging};
  const DeviceLocations& l = o.locations;
  for (const fs::path& p :
       {l.cpu_runtime_include, l.hip_plugin, l.cuda_include_dir, fs::path(l.hip_launcher_compiler),
        l.hip_include_dir, l.launch_abi_include_dir})
    if (p.is_absolute()) files.push_back(p);
  return files;
}

}  // namespace

// `kta-worker --serve` in its own view (ipc/worker_view.h), with AddressSanitizer preloaded for
// a sanitized worker; throws when the sanitizer runtime is missing.
ipc::SpawnSpec RemoteDevice::worker_command(bool asan) const {
  const ipc::WorkerIsolation& isolation = ipc::worker_isolation();
  std::error_code ec;
  fs::path worker = find_worker(options_);
  if (worker.has_parent_path()) worker = fs::absolute(worker, ec);
  ipc::WorkerView view;
  view.gpu = options_.device.kind == DeviceKind::hip;
  view.readable = worker_files(worker, options_, sources_.path());
  view.env = ipc::worker_environment(options_.environment, kWorkerVariables);
  if (asan) {
    std::string error;
    std::string runtime = cpu::sanitizer_runtime(options_, &error);
    if (runtime.empty()) throw std::runtime_error(error);
    view.inner_env.push_back("LD_PRELOAD=" + runtime);
    // Fibers switch stacks: no use-after-return tracking; one report, then exit.
    view.inner_env.push_back(
        "ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0:halt_on_error=1:"
        "allocator_may_return_null=1:print_summary=1:symbolize=1");
  }
  std::vector<std::string> argv = {worker.string(), "--serve"};
  if (isolation.sandboxed) argv.push_back("--sandboxed");
  ipc::SpawnSpec spec;
  spec.argv = ipc::isolated_argv(isolation, view, argv);
  spec.env = ipc::spawn_environment(isolation, view);
  return spec;
}

void RemoteDevice::start(bool asan) {
  std::string why = worker_.start(worker_command(asan), [this] { return greet(); });
  if (!why.empty()) throw std::runtime_error(why);
  asan_ = asan;
  worker_clean_ = true;
  ++started_;
}

std::string RemoteDevice::greet() {
  std::string failure;
  const ipc::WorkerIsolation& isolation = ipc::worker_isolation();
  DeviceOptions o = options_;
  // The worker's own caches are a private folder: nothing it writes is read by another worker or
  // a later run. The code kept across runs is the engine's (code_store.h).
  o.cache_dir = isolation.sandboxed ? fs::path("/tmp/kta-cache") : sources_.path() / "worker-cache";
  auto hello = request({{"op", "hello"}, {"options", to_json(o)}}, 60, &failure);
  if (!hello || !hello->value("ok", false))
    return "the worker did not start: " + (hello ? hello->value("error", "no reply") : failure);
  info_ = device_info_from_json(hello->at("info"));
  // Recorded with every compile (DeviceRecord::details), so a run says how candidate code ran.
  info_.details += (info_.details.empty() ? "" : "; ") + std::string("worker isolation: ") +
                   isolation.describe();
  if (!isolation.sandboxed) warn_unisolated(isolation);
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
  std::string why = ipc::exit_text("worker", ipc::worker_status(ipc::worker_isolation(), status));
  // The last line the worker printed often names the cause (an abort message, a C++ exception).
  std::string last = ipc::last_line(log);
  if (!last.empty()) why += ": " + last;
  return why;
}

std::optional<nlohmann::json> RemoteDevice::request(const json& q, double timeout_s,
                                                    std::string* failure, int fd) {
  ++requests_;
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

// Without staging (or with no worker running) the shared memory is the device's memory: the
// copies are made here. With it, the worker copies within its device's memory and the shared
// memory of each destination is left behind until a download stages it back; a worker restarted
// after a failure maps the older bytes, which matters to nothing: a failed timed launch ends its
// point, and a copy's destination is rewritten every round.
void RemoteDevice::copy(std::span<const BufferCopy> copies) {
  json list = json::array();
  for (const BufferCopy& c : copies) {
    const Shared& dst = shared(c.dst, 0);
    const Shared& src = shared(c.src, 0);
    check_copy(c, dst.bytes, src.bytes);
    if (!staged() || !running()) {
      std::memmove(dst.data + c.dst_offset, src.data + c.src_offset, c.bytes);
    } else {
      list.push_back({c.dst.id, c.dst_offset, c.src.id, c.src_offset, c.bytes});
    }
  }
  if (!list.empty()) stage({{"op", "copy"}, {"copies", std::move(list)}});
}

void RemoteDevice::stage(const json& q) {
  if (!running()) return;
  if (pending_) {
    if (q.at("op") != "download") {
      pending_->push_back(q);
      return;
    }
    send_pending(true);  // a download inside together() sees what was written before it
  }
  std::string failure;
  request(q, options_.launch_timeout_s, &failure);
}

// A batch sample's fresh inputs are an upload and a fill per launch and tensor: hundreds of
// round trips to the worker per round, one request instead.
void RemoteDevice::together(const std::function<void()>& f) {
  if (!staged() || pending_) {
    f();
    return;
  }
  pending_.emplace(json::array());
  try {
    f();
  } catch (...) {
    send_pending(false);  // the shared memory already holds what `f` wrote: keep the device in step
    throw;
  }
  send_pending(false);
}

void RemoteDevice::send_pending(bool reopen) {
  json ops = std::move(*pending_);
  pending_.reset();
  if (!ops.empty()) stage({{"op", "stage_all"}, {"ops", std::move(ops)}});
  if (reopen) pending_.emplace(json::array());
}

LaunchResult RemoteDevice::checked(LaunchResult r) {
  // A GPU context that saw a device error is unusable: the next request gets a fresh worker.
  if (r.context_lost) {
    stop();
    r.device_restarted = true;
  }
  return r;
}

// The cpu device's modules are built here, in the engine, with the compile cache only the engine
// reaches; the worker gets the built object as a descriptor and only loads it.
std::optional<nlohmann::json> RemoteDevice::build_and_load(const CompileRequest& req,
                                                           std::string* failure) {
  cpu::BuildResult b = cpu::build_module(req, options_);
  CompileResult failed;
  if (!b.ok) {
    failed.error = b.error;
    failed.log = b.log;
    return to_json(failed);
  }
  ipc::UniqueFd fd(::open(b.library.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    failed.error = "cannot open the compiled module '" + b.library.string() + "'";
    return to_json(failed);
  }
  json build = {{"log", b.log},
                {"note", b.note},
                {"cache_hit", b.cache_hit},
                {"synchronizes", b.synchronizes},
                {"parameter_names", b.parameter_names}};
  return request({{"op", "load"}, {"request", to_json(req)}, {"build", build}},
                 options_.compile_timeout_s + 10, failure, fd.get());
}

std::optional<CompileResult> RemoteDevice::send_compile(const CompileRequest& req,
                                                        std::string* failure) {
  const bool code = req.exchange == CodeExchange::load || req.exchange == CodeExchange::build;
  ipc::UniqueFd fd;
  try {
    if (code) fd = ipc::memfd_with(req.exchange == CodeExchange::load ? req.code : "", "kta-code");
  } catch (const std::exception& e) {
    CompileResult r;
    r.error = e.what();
    return r;
  }
  CompileRequest wire = req;
  wire.code.clear();
  auto reply = request({{"op", "compile"}, {"request", to_json(wire)}},
                       options_.compile_timeout_s + 10, failure, code ? fd.get() : -1);
  if (!reply) return std::nullopt;
  CompileResult r = compile_result_from_json(*reply);
  if (req.exchange == CodeExchange::build && r.ok && !ipc::read_fd(fd.get(), &r.code)) {
    r.ok = false;
    r.error = "cannot read the code the worker built";
  }
  return r;
}

// One compile in the worker: built here and loaded there on the cpu device; on a GPU compiled
// there from a staged copy of the source's folder, through the code the engine keeps.
std::optional<nlohmann::json> RemoteDevice::compile_request(const CompileRequest& req,
                                                            std::string* failure) {
  if (options_.device.kind == DeviceKind::cpu) return build_and_load(req, failure);
  CodeStore store(cache_root(options_.cache_dir) / "hip");
  std::optional<CompileResult> r = store.compile(
      req, worker_clean_,
      [this](const CompileRequest& q, std::string* why) { return send_compile(q, why); }, failure);
  // A launcher's host code ran in the worker when it was loaded.
  if (req.launcher) worker_clean_ = false;
  if (!r) return std::nullopt;
  return to_json(*r);
}

CompileResult RemoteDevice::compile(const CompileRequest& request_in) {
  auto t0 = std::chrono::steady_clock::now();
  CompileRequest req = request_in;
  std::error_code ec;
  req.source = fs::absolute(req.source, ec);
  CompileResult out;
  std::string err = ensure(req.options.sanitize);
  if (err.empty() && options_.device.kind != DeviceKind::cpu && ipc::worker_isolation().sandboxed)
    req.source = sources_.stage(req.source, &err);
  if (!err.empty()) {
    out.error = err;
    return out;
  }
  std::string failure;
  auto r = compile_request(req, &failure);
  if (!r) {
    out.error = "worker failed while compiling: " + failure;
    return out;
  }
  out = compile_result_from_json(*r);
  if (options_.device.kind == DeviceKind::cpu)
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
    auto r = compile_request(m.request, &failure);
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
  worker_clean_ = false;  // candidate code runs from here on
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
