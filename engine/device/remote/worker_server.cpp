#include "engine/device/remote/worker_server.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <vector>

#include "engine/device/cpu/cpu_device.h"
#include "engine/device/hip/hip_plugin_loader.h"
#include "engine/device/remote/protocol.h"
#include "engine/ipc/channel.h"
#include "engine/ipc/shared_buffer.h"
#include "engine/ipc/unique_fd.h"

namespace kta::engine::remote {
namespace {

// One engine buffer: the shared memory both processes map, and for a device with memory of its
// own (hip) the device buffer it is staged to.
struct Mapping {
  void* data = nullptr;
  size_t length = 0;
  size_t bytes = 0;
  Buffer device;
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
      std::optional<json> request = ipc::receive_message(socket_, &fd);
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
      if (!ipc::send_message(socket_, reply)) return 0;
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
    if (op == "timed") return to_json(TimedResult{r});
    return to_json(r);
  }

  // Out of memory inside candidate code surfaces as an error text; name the limit.
  LaunchResult with_limit(LaunchResult r) const {
    if (!r.ok && r.error.rfind("out of memory", 0) == 0)
      r.error = "out of memory" + limit_text() + r.error.substr(13);
    return r;
  }

  Device& device() {
    if (!device_) throw std::runtime_error("no hello received");
    return *device_;
  }

  // The device's own buffer for an engine buffer id (the id itself on cpu, where the device
  // adopts the shared memory).
  Buffer device_buffer(uint64_t id) const {
    if (cpu_ != nullptr) return Buffer{id, 0};
    auto it = mappings_.find(id);
    if (it == mappings_.end()) throw std::runtime_error("unknown buffer " + std::to_string(id));
    return it->second.device;
  }
  Mapping& mapping(const json& q) {
    auto it = mappings_.find(q.at("id").get<uint64_t>());
    if (it == mappings_.end()) throw std::runtime_error("unknown buffer");
    return it->second;
  }
  std::vector<KernelArg> translate(std::vector<KernelArg> args) const {
    for (KernelArg& a : args)
      if (a.type == ArgType::ptr) a.buffer = device_buffer(a.buffer.id);
    return args;
  }
  LauncherArgs translate(LauncherArgs args) const {
    for (TensorArg& t : args.tensors) t.buffer = device_buffer(t.buffer.id);
    return args;
  }

  // Hosts the requested device: the cpu device, or the hip device through its plugin.
  // Buffers are the shared memory itself where the device works on host memory; a device with
  // memory of its own (DeviceInfo::own_memory) gets copies staged in and out.
  void open_device(const DeviceOptions& o) {
    if (o.device.kind == DeviceKind::cpu) {
      auto cpu = std::make_unique<cpu::CpuDevice>(o);
      host_ = cpu.get();
      if (!cpu->info().own_memory) cpu_ = cpu.get();
      device_ = std::move(cpu);
      return;
    }
    hip::HipLoad h = hip::load_hip_device(o, o.device.ordinal);
    if (!h.device) throw std::runtime_error(h.error);
    device_ = std::move(h.device);
  }

  json handle(const std::string& op, const json& q, int fd) {
    if (op == "hello") return hello(q);
    if (op == "map") return map(q, fd);
    if (op == "load") return load(q, fd);
    if (op == "compile") return compile(q, fd);
    if (fd >= 0) close(fd);
    if (op == "unmap") return unmap(q);
    if (op == "upload" || op == "download" || op == "fill" || op == "copy") return stage(op, q);
    if (op == "stage_all") {
      for (const json& s : q.at("ops")) stage(s.at("op").get<std::string>(), s);
      return {{"ok", true}};
    }
    if (op == "run") return run(q);
    if (op == "timed") return run_timed(q);
    if (op == "sync") {
      device().synchronize();
      return {{"ok", true}};
    }
    throw std::runtime_error("unknown request '" + op + "'");
  }

  json hello(const json& q) {
    DeviceOptions o = options_from_json(q.at("options"));
    bool asan = cpu::CpuDevice::sanitizer_loaded();
    // The address-space limit contains runaway allocations of host code. AddressSanitizer
    // reserves terabytes of shadow memory and a GPU runtime maps the device's whole memory
    // into the address space, so neither can run under one; GPU memory is bounded by the card.
    bool gpu = o.device.kind == DeviceKind::hip;
    if (o.memory_limit != 0 && !asan && !gpu) {
      rlimit lim{o.memory_limit, o.memory_limit};
      if (setrlimit(RLIMIT_AS, &lim) == 0) memory_limit_ = o.memory_limit;
    }
    try {
      open_device(o);
    } catch (const std::exception& e) {
      return {{"ok", false}, {"error", e.what()}};
    }
    DeviceInfo info = device_->info();
    return {{"ok", true}, {"info", to_json(info)}, {"asan", asan}, {"pid", getpid()}};
  }

  json map(const json& q, int fd) {
    if (fd < 0) throw std::runtime_error("map without a descriptor");
    size_t bytes = q.at("bytes").get<size_t>();
    size_t page = size_t(sysconf(_SC_PAGESIZE));
    size_t length = std::max(page, (bytes + page - 1) / page * page);
    void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
      return {{"ok", false}, {"error", "cannot map buffer memory" + limit_text()}};
    uint64_t id = q.at("id").get<uint64_t>();
    Mapping m{p, length, bytes, Buffer{}};
    if (cpu_ != nullptr) {
      cpu_->adopt(id, p, bytes);
    } else {
      // The shared memory holds the buffer's last known contents (also after a restart); a
      // fresh buffer's are zeros, set on the device without reading the shared pages.
      m.device = device().alloc(bytes);
      if (q.value("fresh", false)) {
        device().fill(m.device, 0);
      } else {
        device().upload(m.device, p, bytes);
      }
    }
    mappings_[id] = m;
    return {{"ok", true}};
  }

  // A cpu module the engine built: loaded from the descriptor it came with, which stays open
  // (dlopen knows a module by its path, /proc/self/fd/N, so the number must not be reused).
  json load(const json& q, int fd) {
    if (fd < 0) throw std::runtime_error("load without a descriptor");
    modules_.emplace_back(fd);
    // Inherited by the sanitizer's symbolizer, which reads the module as /proc/self/fd/N too.
    fcntl(fd, F_SETFD, 0);
    if (host_ == nullptr) throw std::runtime_error("load on a device that is not the cpu device");
    const json& b = q.at("build");
    cpu::BuildResult build;
    build.ok = true;
    build.library = "/proc/self/fd/" + std::to_string(fd);
    build.log = b.value("log", std::string());
    build.note = b.value("note", std::string());
    build.cache_hit = b.value("cache_hit", false);
    build.synchronizes = b.value("synchronizes", false);
    build.parameter_names = b.value("parameter_names", std::vector<std::string>());
    return to_json(host_->load_built(compile_request_from_json(q.at("request")), build));
  }

  // A compile; for an exchange of compiled code (code_store.h) the code travels in the memfd
  // that came along: read from it to load, written into it after a build (which loads nothing).
  json compile(const json& q, int fd) {
    ipc::UniqueFd code(fd);
    CompileRequest req = compile_request_from_json(q.at("request"));
    const bool exchanged =
        req.exchange == CodeExchange::load || req.exchange == CodeExchange::build;
    if (exchanged && !code) throw std::runtime_error("a code exchange without a descriptor");
    if (req.exchange == CodeExchange::load && !ipc::read_fd(code.get(), &req.code))
      throw std::runtime_error("cannot read the code to load");
    CompileResult r = device().compile(req);
    if (req.exchange == CodeExchange::build && r.ok && !ipc::write_fd(code.get(), r.code))
      throw std::runtime_error("cannot hand the built code back");
    r.code.clear();
    return to_json(r);
  }

  json unmap(const json& q) {
    uint64_t id = q.at("id").get<uint64_t>();
    auto it = mappings_.find(id);
    if (it != mappings_.end()) {
      device().free(cpu_ != nullptr ? Buffer{id, 0} : it->second.device);
      munmap(it->second.data, it->second.length);
      mappings_.erase(it);
    }
    return {{"ok", true}};
  }

  // Staging between the shared memory and a device's own memory (not used on cpu).
  json stage(const std::string& op, const json& q) {
    if (op == "copy") {
      // [dst, dst_offset, src, src_offset, bytes] each, on the device's own memory.
      std::vector<BufferCopy> copies;
      for (const json& c : q.at("copies"))
        copies.push_back({device_buffer(c.at(0).get<uint64_t>()), c.at(1).get<size_t>(),
                          device_buffer(c.at(2).get<uint64_t>()), c.at(3).get<size_t>(),
                          c.at(4).get<size_t>()});
      device().copy(copies);
      return {{"ok", true}};
    }
    Mapping& m = mapping(q);
    if (op == "upload") {
      device().upload(m.device, m.data, m.bytes);
    } else if (op == "download") {
      device().download(m.data, m.device, m.bytes);
    } else {
      device().fill(m.device, q.at("byte").get<uint8_t>());
    }
    return {{"ok", true}};
  }

  Invocation translate(Invocation inv) const {
    if (KernelLaunch* k = std::get_if<KernelLaunch>(&inv.work)) {
      k->args = translate(std::move(k->args));
    } else {
      inv.work = translate(std::get<LauncherArgs>(std::move(inv.work)));
    }
    return inv;
  }

  json run(const json& q) {
    return to_json(with_limit(device().run(translate(invocation_from_json(q.at("invocation"))))));
  }

  json run_timed(const json& q) {
    std::vector<Invocation> batch;
    for (const json& j : q.at("batch")) batch.push_back(translate(invocation_from_json(j)));
    TimedResult t = device().timed(batch, q.at("flush").get<bool>());
    t.status = with_limit(t.status);
    return to_json(t);
  }

  int socket_;
  std::unique_ptr<Device> device_;
  cpu::CpuDevice* cpu_ = nullptr;       // device_ when it is the cpu device on shared memory
  cpu::CpuDevice* host_ = nullptr;      // device_ when it is the cpu device (staged or not)
  std::vector<ipc::UniqueFd> modules_;  // descriptors of loaded cpu modules
  std::map<uint64_t, Mapping> mappings_;
  size_t memory_limit_ = 0;
};

}  // namespace

int serve(int socket) { return Server(socket).run(); }

}  // namespace kta::engine::remote
