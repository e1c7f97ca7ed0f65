#include "engine/device/cpu/cpu_device.h"

#include <dlfcn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>

#include "engine/device/cpu/ceilings.h"
#include "engine/device/cpu/kernel_build.h"
#include "engine/ipc/command.h"
#include "engine/runtime/kta/cpu_runtime.h"

namespace kta::engine::cpu {
namespace {

// The runtime library's entry points, resolved once per process.
struct Runtime {
  void* handle = nullptr;
  std::string error;
  decltype(&kta_rt_configure) configure = nullptr;
  decltype(&kta_rt_last_error) last_error = nullptr;
  decltype(&kta_rt_sticky_error) sticky_error = nullptr;
  decltype(&kta_rt_clear_error) clear_error = nullptr;
  decltype(&kta_rt_output) output = nullptr;
  decltype(&kta_rt_clear_output) clear_output = nullptr;
};

// Loaded by the first device of the process from `path`: the runtime's state is process-wide,
// so later devices share that library.
Runtime& load_runtime(const std::string& path) {
  static Runtime rt = [&] {
    Runtime r;
    r.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (r.handle == nullptr) {
      r.error = std::string("cannot load the cpu runtime: ") + dlerror();
      return r;
    }
    auto sym = [&](const char* n) { return dlsym(r.handle, n); };
    r.configure = reinterpret_cast<decltype(r.configure)>(sym("kta_rt_configure"));
    r.last_error = reinterpret_cast<decltype(r.last_error)>(sym("kta_rt_last_error"));
    r.sticky_error = reinterpret_cast<decltype(r.sticky_error)>(sym("kta_rt_sticky_error"));
    r.clear_error = reinterpret_cast<decltype(r.clear_error)>(sym("kta_rt_clear_error"));
    r.output = reinterpret_cast<decltype(r.output)>(sym("kta_rt_output"));
    r.clear_output = reinterpret_cast<decltype(r.clear_output)>(sym("kta_rt_clear_output"));
    if (!r.configure || !r.last_error || !r.sticky_error || !r.clear_error || !r.output ||
        !r.clear_output)
      r.error = "the cpu runtime at '" + path + "' lacks kta_rt entry points";
    return r;
  }();
  return rt;
}
Runtime& runtime() { return load_runtime({}); }

std::string take_output() {
  Runtime& rt = runtime();
  size_t n = 0;
  const char* p = rt.output(&n);
  std::string s(p, n);
  rt.clear_output();
  return s;
}

LaunchResult failed(std::string why) {
  LaunchResult r;
  r.ok = false;
  r.error = std::move(why);
  return r;
}

// Sanitized modules see ASan-tracked copies of the buffers, so an access past a buffer's end
// is reported (the buffers themselves may be shared memory that ASan knows nothing about).
struct ShadowCopies {
  std::vector<std::pair<void*, std::pair<void*, size_t>>> copies;  // shadow -> (original, bytes)
  void* shadow(void* original, size_t bytes) {
    void* s = std::malloc(bytes == 0 ? 1 : bytes);
    if (s == nullptr) throw std::bad_alloc();
    std::memcpy(s, original, bytes);
    copies.push_back({s, {original, bytes}});
    return s;
  }
  ~ShadowCopies() {
    for (auto& [s, orig] : copies) {
      std::memcpy(orig.first, s, orig.second);
      std::free(s);
    }
  }
};

// Why a kernel's parameters cannot be passed, or do not match the task's signature; empty when
// they fit.
std::string parameter_error(const std::vector<ParamType>& params, const CompileRequest& request,
                            const std::vector<std::string>& names) {
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].code == "?" || params[i].code == "&") {
      std::string nm = i < names.size() ? " '" + names[i] + "'" : std::string();
      return "unsupported kernel parameter " + std::to_string(i + 1) + nm + " of '" +
             request.entry + "': only pointers and arithmetic scalars can be passed";
    }
  }
  if (request.signature.empty()) return {};
  return check_signature(params, request.signature, names, request.entry);
}

}  // namespace

struct CpuDevice::Module {
  void* handle = nullptr;
  bool launcher = false;
  bool sanitize = false;
  std::string entry;
  std::vector<ParamType> params;
  int (*launch)(void* const*, dim3, dim3, size_t) = nullptr;
  int (*call)(const kta_call*) = nullptr;
};

CpuDevice::CpuDevice(const DeviceOptions& options) : options_(options) {
  Runtime& rt = load_runtime(runtime_library_path(options));
  if (!rt.error.empty()) throw std::runtime_error(rt.error);
  kta_rt::RuntimeConfig c{options.threads, uint32_t(options.warp_size), options.shared_mem_limit,
                          uint32_t(options.max_threads_per_block), options.fiber_stack_bytes};
  rt.configure(&c);
  // Processes a launch starts are this process's to reap (reap_children), even after a double
  // fork.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
}

CpuDevice::~CpuDevice() {
  for (auto& [id, m] : memory_) {
    if (m.owned) std::free(m.data);
  }
  // Modules stay loaded: the runtime's pool threads may still hold thread-local state of theirs.
}

bool CpuDevice::sanitizer_loaded() { return dlsym(RTLD_DEFAULT, "__asan_init") != nullptr; }

std::string sanitizer_runtime(const DeviceOptions& options, std::string* error) {
  const std::string cxx = host_compiler(options);
  ipc::CommandResult r = ipc::run_command({cxx, "-print-file-name=libasan.so"});
  std::string path = r.output.substr(0, r.output.find('\n'));
  std::error_code ec;
  if (!r.ok() || path.find('/') == std::string::npos || !std::filesystem::exists(path, ec)) {
    *error = "AddressSanitizer runtime (libasan.so) not found for " + cxx;
    return {};
  }
  return path;
}

DeviceInfo CpuDevice::info() const {
  DeviceInfo i;
  unsigned threads =
      options_.threads != 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  i.name = "cpu (" + std::to_string(threads) + " threads)";
  i.kind = DeviceKind::cpu;
  i.warp_size = options_.warp_size;
  i.l2_bytes = last_level_cache_bytes();
  i.shared_mem_per_block = options_.shared_mem_limit;
  i.max_threads_per_block = options_.max_threads_per_block;
  i.timer = DeviceTimer::process_cpu;
  i.own_memory = options_.cpu_own_memory;
  const CpuCeilings c = options_.cpu_dram_read > 0
                            ? cpu_ceilings_with(i.l2_bytes, options_.cpu_dram_read)
                            : cpu_ceilings(i.l2_bytes);
  i.peak_bandwidth = c.dram_read;
  i.cache_bandwidth = c.cache_read;
  i.peak_flops = c.flops;
  // One core's read stream bounds bytes per CPU-second; hardware prefetch and software tricks
  // can beat the measuring loop by some margin, never by half again.
  i.physics_margin = 1.5;
  return i;
}

Buffer CpuDevice::alloc(size_t bytes) {
  void* p = std::aligned_alloc(256, (std::max<size_t>(bytes, 1) + 255) / 256 * 256);
  if (p == nullptr) throw std::bad_alloc();
  Buffer b{next_buffer_++, bytes};
  memory_[b.id] = Memory{p, bytes, true};
  return b;
}

Buffer CpuDevice::adopt(uint64_t id, void* data, size_t bytes) {
  memory_[id] = Memory{data, bytes, false};
  next_buffer_ = std::max(next_buffer_, id + 1);
  return Buffer{id, bytes};
}

void CpuDevice::free(Buffer b) {
  auto it = memory_.find(b.id);
  if (it == memory_.end()) return;
  if (it->second.owned) std::free(it->second.data);
  memory_.erase(it);
}

const CpuDevice::Memory* CpuDevice::find_memory(Buffer b, std::string* error) const {
  auto it = memory_.find(b.id);
  if (it == memory_.end()) {
    if (error) *error = "unknown buffer " + std::to_string(b.id);
    return nullptr;
  }
  return &it->second;
}

void* CpuDevice::data(Buffer b) const {
  const Memory* m = find_memory(b, nullptr);
  return m ? m->data : nullptr;
}

void CpuDevice::upload(Buffer dst, const void* src, size_t bytes) {
  std::string e;
  const Memory* m = find_memory(dst, &e);
  if (m == nullptr) throw std::invalid_argument(e);
  if (bytes > m->bytes)
    throw std::invalid_argument("upload of " + std::to_string(bytes) + " bytes into a " +
                                std::to_string(m->bytes) + "-byte buffer");
  std::memcpy(m->data, src, bytes);
}

void CpuDevice::download(void* dst, Buffer src, size_t bytes) {
  std::string e;
  const Memory* m = find_memory(src, &e);
  if (m == nullptr) throw std::invalid_argument(e);
  if (bytes > m->bytes)
    throw std::invalid_argument("download of " + std::to_string(bytes) + " bytes from a " +
                                std::to_string(m->bytes) + "-byte buffer");
  std::memcpy(dst, m->data, bytes);
}

void CpuDevice::fill(Buffer dst, uint8_t byte) {
  std::string e;
  const Memory* m = find_memory(dst, &e);
  if (m == nullptr) throw std::invalid_argument(e);
  std::memset(m->data, byte, m->bytes);
}

void CpuDevice::copy(std::span<const BufferCopy> copies) {
  for (const BufferCopy& c : copies) {
    std::string e;
    const Memory* dst = find_memory(c.dst, &e);
    const Memory* src = dst ? find_memory(c.src, &e) : nullptr;
    if (src == nullptr) throw std::invalid_argument(e);
    check_copy(c, dst->bytes, src->bytes);
    std::memmove(static_cast<std::byte*>(dst->data) + c.dst_offset,
                 static_cast<const std::byte*>(src->data) + c.src_offset, c.bytes);
  }
}

CompileResult CpuDevice::compile(const CompileRequest& request) {
  auto t0 = std::chrono::steady_clock::now();
  CompileResult out;
  auto done = [&]() -> CompileResult& {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };
  if (request.options.sanitize && !sanitizer_loaded()) {
    out.error =
        "sanitize needs AddressSanitizer loaded in the device process (use the isolated device)";
    return done();
  }
  BuildResult b = build_module(request, options_);
  out = load_built(request, b);
  return done();
}

CompileResult CpuDevice::load_built(const CompileRequest& request, const BuildResult& b) {
  CompileResult out;
  // A rebuilt cache entry is worth a note in the step's record (kNotePrefix).
  out.log = b.note.empty() ? b.log : std::string(kNotePrefix) + b.note + "\n" + b.log;
  out.cache_hit = b.cache_hit;
  auto done = [&]() -> CompileResult& { return out; };
  if (!b.ok) {
    out.error = b.error;
    return done();
  }
  if (request.options.sanitize && !sanitizer_loaded()) {
    out.error =
        "sanitize needs AddressSanitizer loaded in the device process (use the isolated device)";
    return done();
  }
  auto m = std::make_unique<Module>();
  m->launcher = request.launcher;
  m->sanitize = request.options.sanitize;
  m->entry = request.entry;
  m->handle = dlopen(b.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (m->handle == nullptr) {
    out.error = std::string("cannot load the compiled module: ") + dlerror();
    return done();
  }
  if (request.launcher) {
    m->call = reinterpret_cast<int (*)(const kta_call*)>(dlsym(m->handle, "kta_entry_call"));
  } else {
    m->launch = reinterpret_cast<int (*)(void* const*, dim3, dim3, size_t)>(
        dlsym(m->handle, "kta_entry_launch"));
    auto sig = reinterpret_cast<const char* (*)()>(dlsym(m->handle, "kta_entry_signature"));
    if (sig != nullptr) m->params = parse_signature(sig());
  }
  if ((request.launcher && m->call == nullptr) || (!request.launcher && m->launch == nullptr)) {
    out.error = "the compiled module lacks its trampoline entry";
    return done();
  }
  if (!request.launcher) {
    out.error = parameter_error(m->params, request, b.parameter_names);
    if (!out.error.empty()) return done();
  }
  out.ok = true;
  out.module = next_module_++;
  modules_[out.module] = std::move(m);
  return done();
}

CpuDevice::Module* CpuDevice::find_module(uint64_t id, std::string* error) {
  auto it = modules_.find(id);
  if (it == modules_.end()) {
    *error = "unknown module " + std::to_string(id);
    return nullptr;
  }
  return it->second.get();
}

LaunchResult CpuDevice::launch_once(Module& m, const std::vector<KernelArg>& args,
                                    const LaunchConfig& config) {
  if (m.launcher) return failed("module '" + m.entry + "' is a launcher; use call()");
  if (args.size() != m.params.size())
    return failed("kernel '" + m.entry + "' takes " + std::to_string(m.params.size()) +
                  " arguments, " + std::to_string(args.size()) + " given");
  std::vector<uint64_t> slots(args.size());
  std::vector<void*> ptrs(args.size());
  ShadowCopies shadows;
  for (size_t i = 0; i < args.size(); ++i) {
    if (m.params[i].pointer) {
      if (args[i].type != ArgType::ptr)
        return failed("argument " + std::to_string(i + 1) + " must be a buffer");
      std::string e;
      const Memory* mem = find_memory(args[i].buffer, &e);
      if (mem == nullptr) return failed("argument " + std::to_string(i + 1) + ": " + e);
      void* p = m.sanitize ? shadows.shadow(mem->data, mem->bytes) : mem->data;
      std::memcpy(&slots[i], &p, sizeof(p));
    } else {
      if (args[i].type == ArgType::ptr)
        return failed("argument " + std::to_string(i + 1) + " must be a scalar");
      convert_scalar(args[i], m.params[i], &slots[i]);
    }
    ptrs[i] = &slots[i];
  }
  Runtime& rt = runtime();
  rt.clear_error();
  dim3 g(config.grid.x, config.grid.y, config.grid.z),
      b(config.block.x, config.block.y, config.block.z);
  int rc = m.launch(ptrs.data(), g, b, config.shared_bytes);
  LaunchResult r;
  r.output = take_output();
  if (rc != 0) {
    r.ok = false;
    r.error = rt.last_error();
  }
  return r;
}

LaunchResult CpuDevice::call_once(Module& m, const LauncherArgs& args) {
  if (!m.launcher) return failed("module '" + m.entry + "' is a kernel; use launch()");
  ShadowCopies shadows;
  std::vector<kta_tensor> tensors(args.tensors.size());
  std::vector<kta_param> params(args.params.size());
  for (size_t i = 0; i < args.tensors.size(); ++i) {
    const TensorArg& t = args.tensors[i];
    std::string e;
    const Memory* mem = find_memory(t.buffer, &e);
    if (mem == nullptr) return failed("tensor '" + t.name + "': " + e);
    if (t.shape.size() > KTA_MAX_DIMS)
      return failed("tensor '" + t.name + "' has too many dimensions");
    kta_tensor& k = tensors[i];
    std::memset(&k, 0, sizeof(k));
    k.name = t.name.c_str();
    k.data = m.sanitize ? shadows.shadow(mem->data, mem->bytes) : mem->data;
    k.dtype = t.dtype;
    k.ndim = int32_t(t.shape.size());
    for (size_t d = 0; d < t.shape.size(); ++d) k.shape[d] = t.shape[d];
  }
  for (size_t i = 0; i < args.params.size(); ++i) {
    params[i] = kta_param{args.params[i].name.c_str(), args.params[i].is_float ? 1 : 0,
                          args.params[i].i, args.params[i].f};
  }
  kta_call c{KTA_ABI_VERSION,        int32_t(tensors.size()), tensors.data(),
             int32_t(params.size()), params.data(),           nullptr};
  Runtime& rt = runtime();
  rt.clear_error();
  int rc = 0;
  LaunchResult r;
  try {
    rc = m.call(&c);
  } catch (const std::bad_alloc&) {
    r.output = take_output();
    r.ok = false;
    r.error = "out of memory in '" + m.entry + "'";
    return r;
  } catch (const std::exception& e) {
    r.output = take_output();
    r.ok = false;
    r.error = "'" + m.entry + "' threw an exception: " + e.what();
    return r;
  }
  r.output = take_output();
  std::string sticky = rt.sticky_error();
  if (!sticky.empty()) {
    r.ok = false;
    r.error = "kernel launch failed: " + sticky;
  } else if (rc != 0) {
    r.ok = false;
    r.error = "'" + m.entry + "' returned " + std::to_string(rc);
  }
  return r;
}

LaunchResult CpuDevice::run_once(Module& m, const Invocation& inv) {
  if (const KernelLaunch* k = inv.kernel()) return launch_once(m, k->args, k->config);
  return call_once(m, *inv.call());
}

LaunchResult CpuDevice::run(const Invocation& invocation) {
  std::string e;
  Module* m = find_module(invocation.module, &e);
  if (m == nullptr) return failed(e);
  std::set<pid_t> before = child_pids();
  double children = 0;
  LaunchResult r = run_once(*m, invocation);
  reap_children(before, r, &children);
  return r;
}

// This process's children, zombies included. Without any (waitid's ECHILD, the common case) no
// scan; else every /proc/<pid>/stat whose parent is this process.
std::set<pid_t> CpuDevice::child_pids() {
  siginfo_t info{};
  if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return {};
  std::set<pid_t> out;
  const pid_t self = getpid();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream f(entry.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == self)
      out.insert(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// Children a launch started (those not in `before`): the device's process is their subreaper
// (set at construction), so even a double fork lands here. Those that exited are reaped and
// their CPU time (user and system) added to *seconds; one still running fails the launch, since
// work it does after the launch returned would be measured nowhere. Children that were there
// before (a python runner beside an in-process device) are left alone.
namespace {
// User and system CPU time of a getrusage record.
double rusage_seconds(const rusage& u) {
  auto secs = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}
}  // namespace

void CpuDevice::reap_children(const std::set<pid_t>& before, LaunchResult& r, double* seconds) {
  rusage start{}, end{};
  getrusage(RUSAGE_CHILDREN, &start);
  bool running = false;
  for (pid_t pid : child_pids()) {
    if (before.count(pid)) continue;
    int status = 0;
    pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == 0) running = true;
  }
  getrusage(RUSAGE_CHILDREN, &end);
  *seconds += rusage_seconds(end) - rusage_seconds(start);
  if (running && r.ok) {
    r.ok = false;
    r.error = "the launch left a child process running (work outside the launch is not measured)";
  }
}

// The cold protocol's flush: write a buffer of twice the LLC. Smaller walks of huge pages with
// the device's buffers flushed by address (`clflush`) were tried and evict as well and cost less
// (bench/cpu_device/RESULTS.md, 2026-12-03), but made the candidate's worker read 4-9% slower
// than the trusted one for identical code in cold timing (gelu, baseline against itself, median
// 0.91-0.96x against 1.00x with this walk): the calibration widened those intervals, but a
// flush that treats the two workers alike is worth its time.
void CpuDevice::flush_caches() {
  size_t bytes = 2 * last_level_cache_bytes();
  if (flush_buffer_.size() != bytes) flush_buffer_.assign(bytes, 0);
  for (size_t i = 0; i < bytes; i += 64) flush_buffer_[i] = char(flush_buffer_[i] + 1);
}

// One timed sample: the cold protocol's flush, then the batch back to back, on the process's CPU
// time over all threads (the block scheduler's threads sleep when idle, so this is what the
// launches cost; a competing process does not inflate it), with the wall time beside it.
TimedResult CpuDevice::timed(std::span<const Invocation> batch, bool flush) {
  TimedResult t;
  if (batch.empty()) {
    t.status = failed("empty batch");
    return t;
  }
  std::string e;
  Module* m = find_module(batch.front().module, &e);
  if (m == nullptr) {
    t.status = failed(e);
    return t;
  }
  for (const Invocation& inv : batch) {
    if (inv.module != batch.front().module) {
      t.status = failed("a batch runs one module");
      return t;
    }
  }
  if (flush) flush_caches();
  std::set<pid_t> before = child_pids();
  // Work a launch handed to a child process counts too, whoever reaped the child: the launch
  // itself (a waitpid in candidate code), or reap_children after it (and a child left running
  // fails the launch).
  rusage children0{};
  getrusage(RUSAGE_CHILDREN, &children0);
  double cpu0 = process_cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < batch.size() && t.status.ok; ++i) t.status = run_once(*m, batch[i]);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = process_cpu_seconds() - cpu0;
  double reaped = 0;
  reap_children(before, t.status, &reaped);
  rusage children1{};
  getrusage(RUSAGE_CHILDREN, &children1);
  double children = rusage_seconds(children1) - rusage_seconds(children0);
  double n = static_cast<double>(batch.size());
  t.seconds = (cpu + children) / n;
  t.wall_seconds = wall / n;
  return t;
}

}  // namespace kta::engine::cpu
