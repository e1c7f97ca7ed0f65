#include "engine/worker/worker_server.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <new>

#include "engine/device/cpu/cpu_device.h"
#include "engine/worker/protocol.h"

namespace kta::engine::worker {
namespace {

struct Mapping {
  void* data = nullptr;
  size_t length = 0;
};

std::string gib(size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3g GiB", double(bytes) / double(size_t(1) << 30));
  return buf;
}

class Server {
 public:
  explicit Server(int socket) : socket_(socket) {}

  int run() {
    for (;;) {
      int fd = -1;
      std::optional<json> request = receive_message(socket_, &fd);
      if (!request) return 0;
      json reply;
      std::string op = request->value("op", "");
      try {
        reply = handle(op, *request, fd);
      } catch (const std::bad_alloc&) {
        reply = failure(op, "out of memory" + limit_text());
      } catch (const std::exception& e) {
        reply = failure(op, std::string("worker: ") + e.what());
      }
      if (!send_message(socket_, reply)) return 0;
    }
  }

 private:
  std::string limit_text() const {
    return memory_limit_ != 0 ? " (limit " + gib(memory_limit_) + ")" : "";
  }

  static json failure(const std::string& op, const std::string& why) {
    if (op == "compile") {
      CompileResult r;
      r.error = why;
      return to_json(r);
    }
    LaunchResult r;
    r.ok = false;
    r.error = why;
    if (op == "timed_launch" || op == "timed_call")
      return {{"status", to_json(r)}, {"seconds", 0.0}};
    return to_json(r);
  }

  // Out of memory inside candidate code surfaces as an error text; name the limit.
  LaunchResult with_limit(LaunchResult r) const {
    if (!r.ok && r.error.rfind("out of memory", 0) == 0)
      r.error = "out of memory" + limit_text() + r.error.substr(13);
    return r;
  }

  cpu::CpuDevice& device() {
    if (!device_) throw std::runtime_error("no hello received");
    return *device_;
  }

  json handle(const std::string& op, const json& q, int fd) {
    if (op == "hello") {
      DeviceOptions o = options_from_json(q.at("options"));
      bool asan = cpu::CpuDevice::sanitizer_loaded();
      // The address-space limit contains runaway allocations; AddressSanitizer reserves terabytes
      // of shadow memory, so it cannot run under one.
      if (o.memory_limit != 0 && !asan) {
        rlimit lim{o.memory_limit, o.memory_limit};
        if (setrlimit(RLIMIT_AS, &lim) == 0) memory_limit_ = o.memory_limit;
      }
      device_ = std::make_unique<cpu::CpuDevice>(o);
      return {{"ok", true}, {"info", to_json(device_->info())}, {"asan", asan}, {"pid", getpid()}};
    }
    if (op == "map") {
      if (fd < 0) throw std::runtime_error("map without a descriptor");
      size_t bytes = q.at("bytes").get<size_t>();
      size_t page = size_t(sysconf(_SC_PAGESIZE));
      size_t length = std::max(page, (bytes + page - 1) / page * page);
      void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      close(fd);
      if (p == MAP_FAILED)
        return {{"ok", false}, {"error", "cannot map buffer memory" + limit_text()}};
      uint64_t id = q.at("id").get<uint64_t>();
      mappings_[id] = Mapping{p, length};
      device().adopt(id, p, bytes);
      return {{"ok", true}};
    }
    if (fd >= 0) close(fd);
    if (op == "unmap") {
      uint64_t id = q.at("id").get<uint64_t>();
      auto it = mappings_.find(id);
      if (it != mappings_.end()) {
        device().free(Buffer{id, 0});
        munmap(it->second.data, it->second.length);
        mappings_.erase(it);
      }
      return {{"ok", true}};
    }
    if (op == "compile")
      return to_json(device().compile(compile_request_from_json(q.at("request"))));
    if (op == "launch") {
      return to_json(with_limit(device().launch(q.at("module").get<uint64_t>(),
                                                kernel_args_from_json(q.at("args")),
                                                launch_config_from_json(q.at("config")))));
    }
    if (op == "call") {
      return to_json(with_limit(
          device().call(q.at("module").get<uint64_t>(), launcher_args_from_json(q.at("args")))));
    }
    if (op == "timed_launch") {
      TimedResult t =
          device().timed_launch(q.at("module").get<uint64_t>(), kernel_args_from_json(q.at("args")),
                                launch_config_from_json(q.at("config")), q.at("flush").get<bool>(),
                                q.at("repeat").get<int>());
      return {{"status", to_json(with_limit(t.status))}, {"seconds", t.seconds}};
    }
    if (op == "timed_call") {
      TimedResult t =
          device().timed_call(q.at("module").get<uint64_t>(), launcher_args_from_json(q.at("args")),
                              q.at("flush").get<bool>(), q.at("repeat").get<int>());
      return {{"status", to_json(with_limit(t.status))}, {"seconds", t.seconds}};
    }
    if (op == "sync") return {{"ok", true}};
    throw std::runtime_error("unknown request '" + op + "'");
  }

  int socket_;
  std::unique_ptr<cpu::CpuDevice> device_;
  std::map<uint64_t, Mapping> mappings_;
  size_t memory_limit_ = 0;
};

}  // namespace

int serve(int socket) { return Server(socket).run(); }

}  // namespace kta::engine::worker
