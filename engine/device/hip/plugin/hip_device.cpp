#include "engine/device/hip/plugin/hip_device.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "engine/device/hip/plugin/hip_check.h"
#include "engine/device/hip/plugin/hip_module.h"
#include "engine/device/hip/plugin/launcher_build.h"
#include "engine/device/hip/rtc/code_cache.h"
#include "engine/device/hip/rtc/hiprtc_compiler.h"
#include "engine/device/hip/rtc/kernel_signature.h"
#include "engine/ipc/cache_key.h"
#include "engine/runtime/kta/geometry.h"

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

// Device printf reaches the process's stdout when the kernel's stream is synchronized; a launch
// redirects fd 1 to a temporary file around that point so the output lands in its result
// (and never in whatever protocol the worker speaks on stdout).
class StdoutCapture {
 public:
  StdoutCapture() {
    std::fflush(stdout);
    file_ = std::tmpfile();
    saved_ = dup(1);
    if (file_ != nullptr && saved_ >= 0) dup2(fileno(file_), 1);
  }
  std::string finish() {
    std::string out;
    if (file_ == nullptr || saved_ < 0) return out;
    std::fflush(stdout);
    dup2(saved_, 1);
    close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) out.append(buf, n);
    std::fclose(file_);
    file_ = nullptr;
    return out;
  }
  ~StdoutCapture() { finish(); }

 private:
  FILE* file_ = nullptr;
  int saved_ = -1;
};

std::string format_mhz(int khz) { return std::to_string(khz / 1000) + " MHz"; }

}  // namespace

HipDevice::HipDevice(int ordinal, const DeviceOptions& options)
    : ordinal_(ordinal), options_(options) {
  // Where opening goes (context, clock reader, copy peak): reported in `details`, since opening
  // a device is the larger part of a short task's evaluation.
  using SteadyClock = std::chrono::steady_clock;
  auto seconds_since = [](SteadyClock::time_point t) {
    return std::chrono::duration<double>(SteadyClock::now() - t).count();
  };
  auto t_open = SteadyClock::now();
  int count = 0;
  hipError_t e = hipGetDeviceCount(&count);
  if (e != hipSuccess) throw std::runtime_error(no_gpu_reason(e));
  if (ordinal < 0 || ordinal >= count)
    throw std::runtime_error("no GPU number " + std::to_string(ordinal) + " (this machine has " +
                             std::to_string(count) + ")");
  KTA_HIP_REQUIRE(hipSetDevice(ordinal));
  KTA_HIP_REQUIRE(hipFree(nullptr));  // creates the context now, not inside the first measurement
  double context_s = seconds_since(t_open);
  hipDeviceProp_t p;
  KTA_HIP_REQUIRE(hipGetDeviceProperties(&p, ordinal));
#if defined(__HIP_PLATFORM_NVIDIA__)
  arch_ = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal) !=
      cudaSuccess)
    optin = 0;
  info_.shared_mem_per_block = optin > 0 ? size_t(optin) : p.sharedMemPerBlock;
#else
  arch_ = p.gcnArchName;
  arch_ = arch_.substr(0, arch_.find(':'));
  info_.shared_mem_per_block = p.sharedMemPerBlock;
#endif
  info_.name = p.name;
  info_.kind = DeviceKind::hip;
  info_.timer = DeviceTimer::events;
  info_.own_memory = true;
  info_.warp_size = p.warpSize;
  info_.l2_bytes = size_t(p.l2CacheSize);
  info_.max_threads_per_block = p.maxThreadsPerBlock;
  clock_hz_ = double(p.clockRate) * 1e3;
  // No multiprocessor does more than 16384 flop per clock (NVIDIA Hopper's sparse FP8 tensor
  // cores; dense FP16 is 4096): a generous bound for the compute-time floor.
  info_.peak_flops = 16384.0 * p.multiProcessorCount * clock_hz_;
  int driver = 0, runtime = 0;
  (void)hipDriverGetVersion(&driver);
  (void)hipRuntimeGetVersion(&runtime);
  info_.details = arch_ + ", " + std::to_string(p.multiProcessorCount) + " multiprocessors, " +
                  std::to_string(p.totalGlobalMem >> 30) + " GiB, L2 " +
                  std::to_string(p.l2CacheSize >> 20) + " MiB, max clock " +
                  format_mhz(p.clockRate) + ", memory clock " + format_mhz(p.memoryClockRate) +
                  ", driver " + std::to_string(driver) + ", runtime " + std::to_string(runtime) +
                  ", " + rtc_version();
  char bus_id[32] = {};
  if (hipDeviceGetPCIBusId(bus_id, int(sizeof bus_id), ordinal) != hipSuccess) bus_id[0] = 0;
  auto t_clocks = SteadyClock::now();
  clocks_ = ClockReader::for_platform(bus_id);
  info_.details += ", clocks: " + clocks_->describe();
  double clocks_s = seconds_since(t_clocks);
  KTA_HIP_REQUIRE(hipStreamCreate(&stream_));
  KTA_HIP_REQUIRE(hipEventCreate(&start_));
  KTA_HIP_REQUIRE(hipEventCreate(&stop_));
  auto t_peak = SteadyClock::now();
  measure_peak_bandwidth();
  double peak_s = seconds_since(t_peak);
  double tick = measure_timer_resolution();
  // CUDA's documented "about half a microsecond", taken at its coarse end when unmeasured.
  info_.timer_resolution = tick > 0 ? tick : 1e-6;
  char timer[96];
  std::snprintf(timer, sizeof timer, ", event timer tick %.3g us (%s)",
                info_.timer_resolution * 1e6, tick > 0 ? "measured" : "not measured: assumed");
  info_.details += timer;
  char opened[160];
  std::snprintf(opened, sizeof opened,
                "; opened in %.3f s (context %.3f s, clock reader %.3f s, copy peak %.3f s)",
                seconds_since(t_open), context_s, clocks_s, peak_s);
  info_.details += opened;
}

HipDevice::~HipDevice() {
  // After a sticky error every call fails; release what can be released and let the process end.
  modules_.clear();
  for (auto& [id, m] : memory_) (void)hipFree(m.ptr);
  if (flush_ != nullptr) (void)hipFree(flush_);
  if (start_ != nullptr) (void)hipEventDestroy(start_);
  if (stop_ != nullptr) (void)hipEventDestroy(stop_);
  if (stream_ != nullptr) (void)hipStreamDestroy(stream_);
}

void HipDevice::require_usable() const {
  if (!lost_.empty()) throw std::runtime_error(lost_);
}

LaunchResult HipDevice::failed(std::string why) const {
  LaunchResult r;
  r.ok = false;
  r.error = std::move(why);
  r.context_lost = !lost_.empty();
  return r;
}

Buffer HipDevice::alloc(size_t bytes) {
  require_usable();
  void* p = nullptr;
  KTA_HIP_REQUIRE(hipMalloc(&p, bytes == 0 ? 1 : bytes));
  Buffer b{next_buffer_++, bytes};
  memory_[b.id] = {p, bytes};
  return b;
}

void HipDevice::free(Buffer b) {
  auto it = memory_.find(b.id);
  if (it == memory_.end()) return;
  (void)hipFree(it->second.ptr);
  memory_.erase(it);
}

void* HipDevice::find_memory(Buffer b, std::string* error) const {
  auto it = memory_.find(b.id);
  if (it == memory_.end()) {
    *error = "unknown buffer " + std::to_string(b.id);
    return nullptr;
  }
  return it->second.ptr;
}

void* HipDevice::address(Buffer b) const {
  std::string error;
  void* p = find_memory(b, &error);
  if (p == nullptr) throw std::invalid_argument("hip device: " + error);
  return p;
}

void HipDevice::upload(Buffer dst, const void* src, size_t bytes) {
  require_usable();
  void* p = address(dst);
  if (bytes > memory_.at(dst.id).bytes)
    throw std::invalid_argument("hip device: upload past the buffer's end");
  KTA_HIP_REQUIRE(hipMemcpy(p, src, bytes, hipMemcpyHostToDevice));
}

void HipDevice::download(void* dst, Buffer src, size_t bytes) {
  require_usable();
  void* p = address(src);
  if (bytes > memory_.at(src.id).bytes)
    throw std::invalid_argument("hip device: download past the buffer's end");
  KTA_HIP_REQUIRE(hipMemcpy(dst, p, bytes, hipMemcpyDeviceToHost));
}

void HipDevice::fill(Buffer dst, uint8_t byte) {
  require_usable();
  void* p = address(dst);
  KTA_HIP_REQUIRE(hipMemset(p, byte, memory_.at(dst.id).bytes));
}

// On the device's stream, in order, then waited for: launches on that stream see the copies.
void HipDevice::copy(std::span<const BufferCopy> copies) {
  require_usable();
  for (const BufferCopy& c : copies) {
    auto* dst = static_cast<std::byte*>(address(c.dst));
    const auto* src = static_cast<const std::byte*>(address(c.src));
    check_copy(c, memory_.at(c.dst.id).bytes, memory_.at(c.src.id).bytes);
    if (c.bytes == 0) continue;
    KTA_HIP_REQUIRE(hipMemcpyAsync(dst + c.dst_offset, src + c.src_offset, c.bytes,
                                   hipMemcpyDeviceToDevice, stream_));
  }
  KTA_HIP_REQUIRE(hipStreamSynchronize(stream_));
}

void HipDevice::synchronize() {
  require_usable();
  KTA_HIP_REQUIRE(hipDeviceSynchronize());
}

CompileResult HipDevice::compile(const CompileRequest& request) {
  if (!lost_.empty()) {
    CompileResult r;
    r.error = lost_;
    return r;
  }
  if (request.options.warp_size != 0 && request.options.warp_size != info_.warp_size) {
    CompileResult r;
    r.error = "the hip device's warp size is " + std::to_string(info_.warp_size) + ", not " +
              std::to_string(request.options.warp_size);
    return r;
  }
  bind();
  CompileResult r = request.launcher ? load_launcher(request) : load_kernel(request);
  // AddressSanitizer exists on the cpu device only; the GPU run goes ahead unsanitized.
  if (request.options.sanitize) r.log += "note: sanitize is ignored on the hip device\n";
  return r;
}

namespace {
// The result of a key or build exchange (code_store.h); a build's code in the cache's own
// encoding of an entry.
CompileResult exchanged(RtcOutput out, bool build) {
  CompileResult r = out.result;
  r.code_key = out.key;
  if (build && r.ok) r.code = encode_code({out.format, out.lowered_name, out.result.log, out.code});
  return r;
}
}  // namespace

CompileResult HipDevice::load_kernel(const CompileRequest& request) {
  auto start = std::chrono::steady_clock::now();
  RtcRequest rr{request.source,  request.entry, request.signature,
                request.options, arch_,         options_.cache_dir};
  rr.cuda_include_dir = options_.locations.cuda_include_dir;
  RtcOutput out;
  if (request.exchange == CodeExchange::load) {
    std::optional<CachedCode> c = decode_code(request.code);
    if (!c) {
      out.result.error = "the code handed to the device is not a compiled kernel";
      return out.result;
    }
    out.result.ok = true;
    out.result.log = c->log;
    out.format = c->format;
    out.lowered_name = c->lowered_name;
    out.code = std::move(c->code);
  } else {
    rr.key_only = request.exchange == CodeExchange::key;
    out = rtc_compile(rr);
    if (request.exchange != CodeExchange::none)
      return exchanged(std::move(out), request.exchange == CodeExchange::build);
  }
  CompileResult r = out.result;
  if (!r.ok) return r;
  auto m = std::make_unique<Module>();
  m->entry = request.entry;
  std::string error = KTA_HIP(hipModuleLoadData(&m->module, out.code.data()));
  if (error.empty())
    error = KTA_HIP(hipModuleGetFunction(&m->function, m->module, out.lowered_name.c_str()));
  hipDeviceptr_t sig = 0;
  size_t sig_bytes = 0;
  if (error.empty())
    error = KTA_HIP(hipModuleGetGlobal(&sig, &sig_bytes, m->module, kSignatureSymbol));
  std::vector<uint16_t> codes(sig_bytes / sizeof(uint16_t));
  if (error.empty() && !codes.empty())
    error = KTA_HIP(hipMemcpyDtoH(codes.data(), sig, codes.size() * sizeof(uint16_t)));
  if (error.empty() && (codes.empty() || codes[0] + 1u > codes.size()))
    error = "the kernel's signature record is malformed";
  if (!error.empty()) {
    r.ok = false;
    r.error = "cannot load the compiled kernel: " + error;
    return r;
  }
  m->params.assign(codes.begin() + 1, codes.begin() + 1 + codes[0]);
  uint64_t id = next_module_++;
  modules_[id] = std::move(m);
  r.module = id;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

namespace {
// A launcher's library the engine handed over: written to this worker's private cache folder,
// where dlopen can map it.
std::string write_library(const fs::path& dir, const std::string& bytes, fs::path* library) {
  static int next = 0;
  std::error_code ec;
  fs::create_directories(dir, ec);
  *library = dir / ("loaded-" + std::to_string(getpid()) + "-" + std::to_string(next++) + ".so");
  std::ofstream out(*library, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  return out ? std::string() : "cannot write the launcher to " + library->string();
}
}  // namespace

CompileResult HipDevice::load_launcher(const CompileRequest& request) {
  auto start = std::chrono::steady_clock::now();
  const std::string entry = request.entry.empty() ? "kta_launch" : request.entry;
  LauncherBuild b;
  if (request.exchange == CodeExchange::load) {
    std::optional<CachedCode> c = decode_code(request.code);
    if (!c || c->format != "so") {
      b.result.error = "the code handed to the device is not a built launcher";
      return b.result;
    }
    b.result.error = write_library(kernel_cache_dir(options_.cache_dir), c->code, &b.library);
    b.result.ok = b.result.error.empty();
    b.result.log = c->log;
  } else {
    b = build_launcher(request, arch_, options_, request.exchange == CodeExchange::key);
  }
  CompileResult r = b.result;
  if (request.exchange == CodeExchange::key || request.exchange == CodeExchange::build) {
    r.code_key = b.key;
    if (request.exchange == CodeExchange::build && r.ok) {
      std::string bytes;
      if (!ipc::read_whole_file(b.library, &bytes)) {
        r.ok = false;
        r.error = "cannot read the built launcher " + b.library.string();
        return r;
      }
      r.code = encode_code({"so", entry, r.log, bytes});
    }
    return r;
  }
  if (!r.ok) return r;
  auto m = std::make_unique<Module>();
  m->launcher = true;
  m->entry = entry;
  m->handle = dlopen(b.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (m->handle == nullptr) {
    r.ok = false;
    const char* dl = dlerror();
    r.error = std::string("cannot load the built launcher: ") + (dl ? dl : "unknown error");
    return r;
  }
  m->call = reinterpret_cast<int (*)(const kta_call*)>(dlsym(m->handle, m->entry.c_str()));
  if (m->call == nullptr) {
    r.ok = false;
    r.error =
        "signature mismatch: the launcher exports no extern \"C\" function '" + m->entry + "'";
    return r;
  }
  uint64_t id = next_module_++;
  modules_[id] = std::move(m);
  r.module = id;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

HipDevice::Module* HipDevice::find_module(uint64_t id, bool launcher, std::string* error) {
  auto it = modules_.find(id);
  if (it == modules_.end()) {
    *error = "unknown module " + std::to_string(id);
    return nullptr;
  }
  if (it->second->launcher != launcher) {
    *error = launcher ? "module " + std::to_string(id) + " is a kernel, not a launcher"
                      : "module " + std::to_string(id) + " is a launcher, not a kernel";
    return nullptr;
  }
  return it->second.get();
}

std::string HipDevice::validate(const LaunchConfig& c) const {
  return kta_geometry::error({c.grid.x, c.grid.y, c.grid.z}, {c.block.x, c.block.y, c.block.z},
                             c.shared_bytes, 0, uint64_t(info_.max_threads_per_block),
                             info_.shared_mem_per_block);
}

std::string HipDevice::kernel_params(const Module& m, const std::vector<KernelArg>& args,
                                     std::vector<uint64_t>* slots,
                                     std::vector<void*>* params) const {
  if (args.size() != m.params.size())
    return "signature mismatch: kernel '" + m.entry + "' takes " + std::to_string(m.params.size()) +
           " arguments, the launch passes " + std::to_string(args.size());
  slots->assign(args.size(), 0);
  params->resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const uint16_t code = m.params[i];
    if (!compatible(code, args[i]))
      return "signature mismatch: parameter " + std::to_string(i + 1) + " of '" + m.entry +
             "' is " + code_spelling(code);
    if (args[i].type == ArgType::ptr) {
      std::string error;
      void* p = find_memory(args[i].buffer, &error);
      if (p == nullptr) return error;
      std::memcpy(&(*slots)[i], &p, sizeof p);
    } else {
      convert_scalar(args[i], code, &(*slots)[i]);
    }
    (*params)[i] = &(*slots)[i];
  }
  return {};
}

std::string HipDevice::enqueue_launch(Module& m, const std::vector<KernelArg>& args,
                                      const LaunchConfig& config, hipStream_t stream) {
  if (std::string e = validate(config); !e.empty()) return e;
  std::vector<uint64_t> slots;
  std::vector<void*> params;
  if (std::string e = kernel_params(m, args, &slots, &params); !e.empty()) return e;
#if defined(__HIP_PLATFORM_NVIDIA__)
  // Dynamic shared memory beyond 48 KiB must be asked for per kernel on NVIDIA.
  if (config.shared_bytes > 48 * 1024 && config.shared_bytes > m.shared_opt_in) {
    CUresult cr = cuFuncSetAttribute(m.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     int(config.shared_bytes));
    if (cr != CUDA_SUCCESS)
      return "invalid geometry: the kernel cannot use " + std::to_string(config.shared_bytes) +
             " bytes of dynamic shared memory";
    m.shared_opt_in = config.shared_bytes;
  }
#endif
  std::string e = KTA_HIP(hipModuleLaunchKernel(
      m.function, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
      config.block.z, unsigned(config.shared_bytes), stream, params.data(), nullptr));
  return e.empty() ? e : "launch failed: " + e;
}

std::string HipDevice::make_call(const LauncherArgs& args, std::vector<kta_tensor>* tensors,
                                 std::vector<kta_param>* params, kta_call* call) const {
  tensors->clear();
  params->clear();
  for (const TensorArg& t : args.tensors) {
    kta_tensor k{};
    k.name = t.name.c_str();
    std::string error;
    k.data = find_memory(t.buffer, &error);
    if (k.data == nullptr) return error;
    k.dtype = t.dtype;
    if (t.shape.size() > KTA_MAX_DIMS)
      return "tensor '" + t.name + "' has more than " + std::to_string(KTA_MAX_DIMS) +
             " dimensions";
    k.ndim = int32_t(t.shape.size());
    for (size_t i = 0; i < t.shape.size(); ++i) k.shape[i] = t.shape[i];
    tensors->push_back(k);
  }
  for (const ParamArg& p : args.params)
    params->push_back({p.name.c_str(), p.is_float ? 1 : 0, p.i, p.f});
  *call = kta_call{KTA_ABI_VERSION,         int32_t(tensors->size()), tensors->data(),
                   int32_t(params->size()), params->data(),           nullptr};
  return {};
}

std::string HipDevice::enqueue_call(Module& m, const LauncherArgs& args, hipStream_t stream) {
  std::vector<kta_tensor> tensors;
  std::vector<kta_param> params;
  kta_call call;
  if (std::string e = make_call(args, &tensors, &params, &call); !e.empty()) return e;
  call.stream = stream;
  int rc = m.call(&call);
  if (rc != 0) return "the launcher returned " + std::to_string(rc);
  hipError_t e = hipGetLastError();
  if (e != hipSuccess) return "launch failed: " + hip_error_text(e);
  return {};
}

LaunchResult HipDevice::device_error(hipError_t e, const std::string& what) {
  std::string msg = what + ": " + hip_error_text(e);
  (void)hipGetLastError();  // clears a non-sticky error
  if (hipDeviceSynchronize() != hipSuccess || hipGetLastError() != hipSuccess)
    lost_ = "device error: " + msg + "; the GPU context is lost, the worker must be restarted";
  return failed(lost_.empty() ? "device error: " + msg : lost_);
}

LaunchResult HipDevice::finish(hipStream_t stream, const std::string& what) {
  hipError_t e = hipStreamSynchronize(stream);
  if (e != hipSuccess) return device_error(e, what);
  return {};
}

LaunchResult HipDevice::run(const Invocation& invocation) {
  if (const KernelLaunch* k = invocation.kernel()) return launch_kernel(invocation.module, *k);
  return call_launcher(invocation.module, *invocation.call());
}

LaunchResult HipDevice::launch_kernel(uint64_t module, const KernelLaunch& k) {
  const std::vector<KernelArg>& args = k.args;
  const LaunchConfig& config = k.config;
  if (!lost_.empty()) return failed(lost_);
  std::string error;
  Module* m = find_module(module, false, &error);
  if (m == nullptr) return failed(error);
  bind();
  StdoutCapture capture;
  error = enqueue_launch(*m, args, config, stream_);
  if (!error.empty()) {
    (void)hipGetLastError();
    return failed(error);
  }
  LaunchResult r = finish(stream_, "kernel '" + m->entry + "'");
  r.output = capture.finish();
  return r;
}

LaunchResult HipDevice::call_launcher(uint64_t module, const LauncherArgs& args) {
  if (!lost_.empty()) return failed(lost_);
  std::string error;
  Module* m = find_module(module, true, &error);
  if (m == nullptr) return failed(error);
  bind();
  StdoutCapture capture;
  error = enqueue_call(*m, args, stream_);
  // Work the launcher queued on streams of its own is waited for too.
  hipError_t e = hipDeviceSynchronize();
  LaunchResult r = e != hipSuccess ? device_error(e, "launcher '" + m->entry + "'")
                                   : (error.empty() ? LaunchResult{} : failed(error));
  r.output = capture.finish();
  return r;
}

}  // namespace kta::engine::hip
