#include "engine/device/remote/remote_device.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/device/cpu/kernel_build.h"
#include "engine/device/cpu/subprocess.h"
#include "engine/device/remote/asan_report.h"
#include "engine/device/remote/protocol.h"
#include "engine/ipc/child_status.h"

#ifndef KTA_DEFAULT_WORKER
#define KTA_DEFAULT_WORKER "kta-worker"
#endif

extern char** environ;

namespace fs = std::filesystem;

namespace kta::engine::remote {
namespace {

std::string gib(size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3g GiB", double(bytes) / double(size_t(1) << 30));
  return buf;
}

// The AddressSanitizer runtime that matches the host compiler, to preload into the worker.
std::string asan_runtime(const DeviceOptions& o) {
  cpu::ProcessResult r =
      cpu::run_process({cpu::host_compiler(o), "-print-file-name=libasan.so"}, 30);
  std::string path = r.output.substr(0, r.output.find('\n'));
  if (r.exit_code != 0 || path.empty() || path.find('/') == std::string::npos || !fs::exists(path))
    return {};
  return path;
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

RemoteDevice::RemoteDevice(const DeviceOptions& options) : options_(options) { start(false); }

RemoteDevice::~RemoteDevice() {
  stop();
  for (auto& [id, s] : buffers_) ipc::release_shared_buffer(s);
  if (log_fd_ >= 0) close(log_fd_);
}

void RemoteDevice::start(bool asan) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("cannot create the worker socket: ") +
                             std::strerror(errno));
  if (log_fd_ < 0) {
    log_fd_ = memfd_create("kta-worker-log", MFD_CLOEXEC);
    if (log_fd_ >= 0) fcntl(log_fd_, F_SETFL, O_APPEND);
  }
  if (log_fd_ >= 0) ftruncate(log_fd_, 0);
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0 && std::strncmp(*e, "ASAN_OPTIONS=", 13) != 0)
      env.push_back(*e);
  }
  if (asan) {
    std::string rt = asan_runtime(options_);
    if (rt.empty()) {
      close(sv[0]);
      close(sv[1]);
      throw std::runtime_error("AddressSanitizer runtime (libasan.so) not found for " +
                               cpu::host_compiler(options_));
    }
    env.push_back("LD_PRELOAD=" + rt);
    // Fibers switch stacks: no use-after-return tracking; one report, then exit.
    env.push_back(
        "ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0:halt_on_error=1:"
        "allocator_may_return_null=1:print_summary=1:symbolize=1");
  }
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string path = find_worker(options_);
  std::vector<char*> argv = {path.data(), const_cast<char*>("--serve"), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
  if (log_fd_ >= 0) {
    posix_spawn_file_actions_adddup2(&fa, log_fd_, 1);
    posix_spawn_file_actions_adddup2(&fa, log_fd_, 2);
  }
  pid_t pid = -1;
  int rc = posix_spawn(&pid, path.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (rc != 0) {
    close(sv[0]);
    throw std::runtime_error("cannot start the worker '" + path + "': " + std::strerror(rc));
  }
  pid_ = pid;
  socket_ = sv[0];
  asan_ = asan;
  ++generation_;
  ++started_;
  std::string failure;
  auto hello = request({{"op", "hello"}, {"options", to_json(options_)}}, 60, &failure);
  if (!hello || !hello->value("ok", false)) {
    std::string why = hello ? hello->value("error", "no reply") : failure;
    stop();
    throw std::runtime_error("the worker did not start: " + why);
  }
  info_ = device_info_from_json(hello->at("info"));
  for (auto& [id, s] : buffers_) {
    auto r = request({{"op", "map"}, {"id", id}, {"bytes", s.bytes}}, 30, &failure, s.fd);
    if (!r || !r->value("ok", false)) {
      stop();
      throw std::runtime_error("the worker cannot map buffer memory: " +
                               (r ? r->value("error", "") : failure));
    }
  }
}

void RemoteDevice::stop() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  if (socket_ >= 0) close(socket_);
  pid_ = -1;
  socket_ = -1;
}

std::string RemoteDevice::ensure(bool asan) {
  try {
    if (pid_ > 0 && (asan_ || !asan)) return {};
    // A sanitized module needs a worker with AddressSanitizer preloaded; it stays that way,
    // since other modules run in it too.
    bool want = asan || asan_;
    stop();
    start(want);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string RemoteDevice::log_tail() const { return ipc::fd_tail(log_fd_); }

std::string RemoteDevice::why_worker_ended(int status) {
  std::string tail = log_tail();
  std::string asan = summarize_asan_report(tail);
  if (!asan.empty()) return asan;
  if (tail.find("std::bad_alloc") != std::string::npos ||
      tail.find("out of memory") != std::string::npos)
    return "out of memory (limit " + gib(options_.memory_limit) + ")";
  std::string why = ipc::exit_text("worker", status);
  // The last line the worker printed often names the cause (an abort message, a C++ exception).
  std::string last = ipc::last_line(tail);
  if (!last.empty()) why += ": " + last;
  return why;
}

std::optional<nlohmann::json> RemoteDevice::request(const json& q, double timeout_s,
                                                    std::string* failure, int fd) {
  if (log_fd_ >= 0 && q.value("op", "") != "map") ftruncate(log_fd_, 0);
  auto dead = [&](const std::string& why) -> std::optional<json> {
    *failure = why;
    if (socket_ >= 0) close(socket_);
    socket_ = -1;
    pid_ = -1;
    return std::nullopt;
  };
  if (!send_message(socket_, q, fd)) {
    int status = 0;
    waitpid(pid_, &status, 0);
    return dead(why_worker_ended(status));
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
      }
      return dead("timeout after " + ipc::seconds_text(timeout_s) + " s");
    }
    pollfd p{socket_, POLLIN, 0};
    int n = poll(&p, 1, int(std::min<long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) return dead(std::string("poll failed: ") + std::strerror(errno));
    if (n <= 0) continue;
    std::optional<json> reply = receive_message(socket_);
    if (reply) return reply;
    // The socket closed: the worker died. Collect its status (it may still be exiting).
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 500 && (got = waitpid(pid_, &status, WNOHANG)) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (got == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
    return dead(why_worker_ended(status));
  }
}

Buffer RemoteDevice::alloc(size_t bytes) {
  Shared s = ipc::create_shared_buffer(bytes, "kta-buffer");
  uint64_t id = next_buffer_++;
  buffers_[id] = s;
  if (pid_ > 0) {
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
  if (pid_ > 0) {
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
  if (pid_ <= 0) return;
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
    modules_[id] = ModuleRecord{req, out.module, generation_};
    out.module = id;
  }
  return out;
}

std::string RemoteDevice::load(ModuleRecord& m, uint64_t* remote) {
  std::string err = ensure(m.request.options.sanitize);
  if (!err.empty()) return err;
  if (m.generation != generation_) {
    std::string failure;
    auto r = request({{"op", "compile"}, {"request", to_json(m.request)}},
                     options_.compile_timeout_s + 10, &failure);
    if (!r) return "worker failed while reloading the module: " + failure;
    CompileResult c = compile_result_from_json(*r);
    if (!c.ok) return "cannot reload the module: " + c.error;
    m.remote = c.module;
    m.generation = generation_;
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
TimedResult RemoteDevice::run_module(uint64_t module, json q, double timeout_s, bool timed) {
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
  q["module"] = remote;
  std::string failure;
  auto r = request(q, timeout_s, &failure);
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

LaunchResult RemoteDevice::launch(uint64_t module, const std::vector<KernelArg>& args,
                                  const LaunchConfig& config) {
  return run_module(module,
                    {{"op", "launch"}, {"args", to_json(args)}, {"config", to_json(config)}},
                    options_.launch_timeout_s, false)
      .status;
}

LaunchResult RemoteDevice::call(uint64_t module, const LauncherArgs& args) {
  return run_module(module, {{"op", "call"}, {"args", to_json(args)}}, options_.launch_timeout_s,
                    false)
      .status;
}

TimedResult RemoteDevice::timed_launch(uint64_t module, const std::vector<KernelArg>& args,
                                       const LaunchConfig& config, bool flush, int repeat) {
  return run_module(module,
                    {{"op", "timed_launch"},
                     {"args", to_json(args)},
                     {"config", to_json(config)},
                     {"flush", flush},
                     {"repeat", repeat}},
                    options_.launch_timeout_s * std::max(1, repeat) + 5, true);
}

TimedResult RemoteDevice::timed_call(uint64_t module, const LauncherArgs& args, bool flush,
                                     int repeat) {
  return run_module(
      module, {{"op", "timed_call"}, {"args", to_json(args)}, {"flush", flush}, {"repeat", repeat}},
      options_.launch_timeout_s * std::max(1, repeat) + 5, true);
}

void RemoteDevice::synchronize() {
  if (pid_ <= 0) return;
  std::string failure;
  request({{"op", "sync"}}, options_.launch_timeout_s, &failure);
}

}  // namespace kta::engine::remote
