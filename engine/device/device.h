// The device interface: what the engine needs from something that runs HIP kernels. The cpu
// device (engine/device/cpu) runs them on the host; the hip device runs them on a GPU. A Device
// lives inside a worker process (engine/worker), never in the engine process itself, because
// candidate code runs on it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/runtime/kta/launch.h"

namespace kta::engine {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  size_t shared_bytes = 0;  // dynamic shared memory
};

// Opaque handle of device memory. `id` is meaningful only to the device that made it.
struct Buffer {
  uint64_t id = 0;
  size_t bytes = 0;
};

// One copy within a device's memory: `bytes` from `src` at `src_offset` into `dst` at
// `dst_offset`.
struct BufferCopy {
  Buffer dst;
  size_t dst_offset = 0;
  Buffer src;
  size_t src_offset = 0;
  size_t bytes = 0;
};

// Throws std::invalid_argument when a copy reaches past either buffer's end (`*_bytes`: the
// buffers' sizes as the device allocated them).
inline void check_copy(const BufferCopy& c, size_t dst_bytes, size_t src_bytes) {
  if (c.dst_offset > dst_bytes || c.bytes > dst_bytes - c.dst_offset || c.src_offset > src_bytes ||
      c.bytes > src_bytes - c.src_offset)
    throw std::invalid_argument("copy of " + std::to_string(c.bytes) +
                                " bytes past a buffer's end");
}

// A C type a kernel parameter may have; used both to pass scalars and to check signatures.
enum class ArgType { ptr, i8, u8, i32, u32, i64, u64, f32, f64, boolean };

// One kernel argument: a buffer (passed as a typed device pointer) or a scalar.
struct KernelArg {
  ArgType type = ArgType::ptr;
  std::string pointee;  // for pointers: the element C type the task declares ("float", "__half"...)
  Buffer buffer;        // for ptr
  union {
    int64_t i;
    uint64_t u;
    double f;
  } scalar{};
};

struct CompileOptions {
  bool sanitize = false;  // AddressSanitizer on the compiled kernel (cpu device)
  int warp_size = 0;      // 0: the device's default
  std::vector<std::string> defines;
  std::vector<std::string> extra_flags;
};

// Compiled code crossing the worker's boundary, for the cache of it that only the engine reaches
// (the hip device, whose compilers run in the worker: engine/device/remote/code_store.h). `key`:
// the device names the code the request compiles to and compiles nothing; `build`: it compiles
// and returns the code without loading it (no candidate code runs); `load`: it loads the code
// the engine hands it instead of compiling. `none`: compile and load, as any device does.
enum class CodeExchange { none, key, build, load };

// What to compile: kernel mode names a __global__ function and its expected parameter types;
// launcher mode names an extern "C" int NAME(const kta_call*) function.
struct CompileRequest {
  std::filesystem::path source;
  std::string entry;
  bool launcher = false;
  // The python runner's entries (the hip and cpu devices ignore these): flavor "torch" or
  // "triton", mode "module" or "function".
  std::string flavor = "hip";
  std::string mode;
  std::vector<KernelArg> signature;  // kernel mode: declared parameter types, checked at compile
  CompileOptions options;
  CodeExchange exchange = CodeExchange::none;
  std::string code;  // exchange load: the code, as the device returned it from a build
};

struct CompileResult {
  bool ok = false;
  std::string error;  // named reason when !ok (e.g. "compile error", "signature mismatch: ...")
  std::string log;    // full compiler output
  uint64_t module = 0;
  double seconds = 0;
  bool cache_hit = false;
  // This device cannot run the entry's flavor at all (Triton without a GPU or without the
  // module): the steps that need it are skipped with `error` as the reason, never failed.
  bool unavailable = false;
  // Exchange key and build: what the code is (compiler, options, source and its folder's
  // content; the same on every run). Empty: this device keeps no such code.
  std::string code_key;
  std::string code;  // exchange build: the compiled code, not loaded
};

// Outcome of a launch. A failed launch is an outcome, not an exception.
struct LaunchResult {
  bool ok = true;
  std::string error;   // "invalid geometry: ...", "barrier deadlock in block (3,0,0)", ...
  std::string output;  // what device printf wrote during the launch/call
  // The device process was replaced (crash, timeout): modules stay usable (they are reloaded),
  // and buffer contents are whatever the failed launch left in them.
  bool device_restarted = false;
  // A GPU error poisoned the device's context (illegal address, trap): every later call on this
  // device fails too, so the worker hosting it must be replaced before the next step.
  bool context_lost = false;
};

// Launcher mode arguments: tensors are device buffers, in the task's declaration order.
struct TensorArg {
  std::string name;
  Buffer buffer;
  int32_t dtype = KTA_F32;  // enum kta_dtype
  std::vector<int64_t> shape;
  int32_t role = 0;  // 0 input, 1 output, 2 inout: what a functional torch callable takes/returns
};
struct ParamArg {
  std::string name;
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
};
struct LauncherArgs {
  std::vector<TensorArg> tensors;
  std::vector<ParamArg> params;
  std::vector<ParamArg> init_args;  // torch module mode: the constructor's arguments at this point
};

// A kernel launch: its arguments and geometry.
struct KernelLaunch {
  std::vector<KernelArg> args;
  LaunchConfig config;
};

// One run of a compiled entry: a kernel launch (kernel mode) or one call of a launcher or a
// python runner's callable (every other mode).
struct Invocation {
  uint64_t module = 0;
  std::variant<KernelLaunch, LauncherArgs> work;
  const KernelLaunch* kernel() const { return std::get_if<KernelLaunch>(&work); }
  const LauncherArgs* call() const { return std::get_if<LauncherArgs>(&work); }
};

struct TimedResult {
  LaunchResult status;
  double seconds = 0;       // per launch, on the device's timer (DeviceInfo::timer)
  double wall_seconds = 0;  // per launch on a wall clock, when the timer is not one (else 0)
  // The GPU's SM (graphics) and memory clocks read right after the sample, outside its timed
  // region; 0 when the platform does not expose them (the cpu device, no NVML/rocm-smi).
  double sm_clock_mhz = 0;
  double mem_clock_mhz = 0;
};

enum class DeviceKind { cpu, hip, python };
inline const char* device_kind_name(DeviceKind k) {
  return k == DeviceKind::cpu ? "cpu" : k == DeviceKind::hip ? "hip" : "python";
}

// A concrete device a worker or a python runner hosts: the cpu device, or the hip device on GPU
// `ordinal`.
struct DeviceSpec {
  DeviceKind kind = DeviceKind::cpu;
  int ordinal = 0;
  bool operator==(const DeviceSpec&) const = default;
};
// "cpu" or "hip:N": what results and the worker's hello carry.
inline std::string device_spec_name(const DeviceSpec& spec) {
  if (spec.kind == DeviceKind::hip) return "hip:" + std::to_string(spec.ordinal);
  return device_kind_name(spec.kind);
}

// "cpu", "hip" or "hip:N" as a DeviceSpec; nullopt for anything else ("auto" takes a look at the
// machine: resolve_device).
inline std::optional<DeviceSpec> parse_device_spec(std::string_view text) {
  if (text == "cpu") return DeviceSpec{DeviceKind::cpu};
  if (text == "hip") return DeviceSpec{DeviceKind::hip, 0};
  if (text.starts_with("hip:") && text.size() > 4 && text.size() < 8 &&
      text.find_first_not_of("0123456789", 4) == std::string_view::npos)
    return DeviceSpec{DeviceKind::hip, std::stoi(std::string(text.substr(4)))};
  return std::nullopt;
}

// The clock behind TimedResult::seconds.
enum class DeviceTimer {
  process_cpu,  // the device process's CPU time over all its threads (the cpu device): a
                // competing process does not inflate it; wall time is kept beside it
  events,       // GPU events around the work on the device's stream
  steady,       // a monotonic wall clock
};
inline const char* device_timer_name(DeviceTimer t) {
  return t == DeviceTimer::process_cpu ? "process-cpu"
         : t == DeviceTimer::events    ? "gpu-events"
                                       : "steady";
}

// Whose code a device process runs: the task's own (reference and baseline) on the trusted
// one, the agent's on the candidate's, so reference outputs never share a process with it.
enum class DeviceRole { trusted, candidate };
inline const char* device_role_name(DeviceRole r) {
  return r == DeviceRole::trusted ? "trusted" : "candidate";
}

struct DeviceInfo {
  std::string name;  // "cpu (16 threads)", "NVIDIA H200"
  DeviceKind kind = DeviceKind::cpu;
  int warp_size = 64;
  size_t l2_bytes = 0;  // the largest cache a cold sample flushes (L2 of a GPU, LLC of a cpu)
  size_t shared_mem_per_block = 64 * 1024;
  int max_threads_per_block = 1024;
  DeviceTimer timer = DeviceTimer::steady;
  double timer_resolution = 0;  // seconds per tick of `timer`; 0: continuous
  // The buffers are memory of the device's own (a GPU's): the engine's host data is staged
  // through copies. False: the device works on host memory the engine can map.
  bool own_memory = false;
  // The physics floor's ceilings, measured by the device, per second of its timer; 0 when unknown.
  double peak_bandwidth = 0;   // bytes/s streaming from DRAM (a GPU's copy; the cpu's read rate)
  double cache_bandwidth = 0;  // bytes/s for data resident in its cache (0: not measured)
  double peak_flops = 0;       // flop/s no real kernel exceeds (a generous architectural bound)
  // How far above the measured peaks real work may go on this device before the floor fails it.
  double physics_margin = 1.25;
  std::string details;  // architecture, clocks, runtime versions when known (hip device)
};

class Device {
 public:
  virtual ~Device() = default;
  virtual DeviceInfo info() const = 0;

  virtual Buffer alloc(size_t bytes) = 0;
  virtual void free(Buffer b) = 0;
  virtual void upload(Buffer dst, const void* src, size_t bytes) = 0;
  virtual void download(void* dst, Buffer src, size_t bytes) = 0;
  virtual void fill(Buffer dst, uint8_t byte) = 0;
  // Copies within the device's own memory, in order, with no trip through the host: a timed
  // round's fresh inputs are rotations of a base set uploaded once (engine/execute/
  // fresh_inputs.h), so a large tensor costs a device copy per launch instead of a host draw and
  // an upload. Done when this returns (or, inside together(), when together() returns).
  virtual void copy(std::span<const BufferCopy> copies) = 0;
  // Runs `f`; the uploads and fills it issues may reach the device in one exchange (a worker
  // process gets one request for all of them, not one each). All are done when this returns.
  virtual void together(const std::function<void()>& f) { f(); }

  virtual CompileResult compile(const CompileRequest& request) = 0;
  // One launch or call. Synchronous: returns when the work finished or failed.
  virtual LaunchResult run(const Invocation& invocation) = 0;
  // One timed sample as the device's own timer sees it (DeviceInfo::timer): optionally flushes
  // caches first (cold protocol), then runs the batch's invocations back to back (each with
  // buffers of its own, batch protocol when more than one) and returns seconds per invocation.
  // Every invocation must be of the same module. Timing lives inside the device so that the
  // transport to a worker process never enters a measurement.
  virtual TimedResult timed(std::span<const Invocation> batch, bool flush) = 0;

  // Shorthands over run() and timed() for one kernel launch or call (tests, benchmarks).
  LaunchResult launch(uint64_t module, const std::vector<KernelArg>& args,
                      const LaunchConfig& config) {
    return run(Invocation{module, KernelLaunch{args, config}});
  }
  LaunchResult call(uint64_t module, const LauncherArgs& args) {
    return run(Invocation{module, args});
  }
  // `repeat` launches of the same arguments in one sample.
  TimedResult timed_launch(uint64_t module, const std::vector<KernelArg>& args,
                           const LaunchConfig& config, bool flush, int repeat = 1) {
    std::vector<Invocation> batch(std::max(repeat, 1),
                                  Invocation{module, KernelLaunch{args, config}});
    return timed(batch, flush);
  }
  TimedResult timed_call(uint64_t module, const LauncherArgs& args, bool flush, int repeat = 1) {
    std::vector<Invocation> batch(std::max(repeat, 1), Invocation{module, args});
    return timed(batch, flush);
  }

  // Compiles ahead, in the background and in parallel, what a compiled entry will need for
  // these calls (their buffers unused): a Triton launcher's kernels are specialized per shape,
  // and each specialization is a compile of its own. Returns at once; the first run() or timed()
  // of the module waits for it, so that no check or sample pays a compile. Best effort: a
  // failure here surfaces, named, in the run that needs the kernel. Devices that compile
  // everything in compile() (HIP) do nothing.
  virtual void warm_up(uint64_t module, std::span<const LauncherArgs> calls) {
    (void)module;
    (void)calls;
  }

  virtual void synchronize() = 0;
};

// Where a device's files and tools are when not where the build put them. The CLI fills these
// from Settings (the KTA_* variables); empty: the build's own, or what lies beside the running
// binary.
struct DeviceLocations {
  std::filesystem::path cpu_runtime_lib;         // the cpu device's runtime library
  std::filesystem::path cpu_runtime_include;     // its device model's headers
  std::filesystem::path hip_plugin;              // libkta_hip.so
  std::filesystem::path cuda_include_dir;        // CUDA headers for hipRTC (NVIDIA)
  std::string hip_launcher_compiler;             // nvcc or hipcc for launcher sources
  std::filesystem::path hip_include_dir;         // patched HIP headers (NVIDIA launchers)
  std::filesystem::path launch_abi_include_dir;  // <kta/launch.h> for launchers
};

// Settings of a device, with defaults that suit `kta eval` on the cpu device.
struct DeviceOptions {
  unsigned threads = 0;                 // cpu: OS threads that run blocks; 0: all cores
  int warp_size = 64;                   // cpu: 64 as on AMD, or 32
  size_t shared_mem_limit = 64 * 1024;  // bytes per block, static + dynamic
  int max_threads_per_block = 1024;
  std::filesystem::path cache_dir;  // kta's cache (Settings::cache_dir); empty: see cache_root()
  std::string compiler;             // cpu: host C++ compiler; empty: the build's
  double launch_timeout_s = 10;     // isolated: wall time of one launch/call before the kill
  double compile_timeout_s = 120;   // wall time of one compile
  size_t memory_limit =
      size_t(8) << 30;           // isolated: address-space limit of the worker (off under ASan)
  std::filesystem::path worker;  // isolated: the kta-worker binary; empty: found
  size_t fiber_stack_bytes = 128 * 1024;  // cpu: stack of each GPU thread of a synchronizing kernel
  // cpu: a warp shuffle that reads an inactive or nonexistent lane fails the launch, naming the
  // kernel, the shuffle's file:line, the block and the lane (kta eval --check-lanes).
  bool check_lanes = false;
  DeviceSpec device;  // isolated: what the worker hosts
  // The cpu device reports memory of its own (DeviceInfo::own_memory), so a worker stages
  // buffers as it does a GPU's: the tests of that path on machines without a GPU.
  bool cpu_own_memory = false;
  // cpu: the physics ceiling's DRAM read rate (bytes per CPU-second), measured once by the
  // engine (make_isolated_device) and handed to each worker; 0: the device measures it.
  double cpu_dram_read = 0;
  DeviceLocations locations;
  // The engine's environment (Settings::environment), read by no device: a worker gets only the
  // few variables its GPU runtime reads of it (engine/ipc/worker_view.h).
  std::map<std::string, std::string> environment;
};

// kta's cache folder: `configured` (Settings::cache_dir, which the CLI always sets), else one
// under the temporary folder (tests and benchmarks that set none).
inline std::filesystem::path cache_root(const std::filesystem::path& configured) {
  return configured.empty() ? std::filesystem::temp_directory_path() / "kta-cache" : configured;
}

// "cpu", "hip", "hip:N" or "auto" (a GPU when one is present, asking the hip plugin
// `hip_plugin`, else cpu). Returns the concrete device and for auto why it was chosen; throws
// std::invalid_argument for an unknown spec.
DeviceSpec resolve_device(const std::string& spec, std::string* why = nullptr,
                          const std::filesystem::path& hip_plugin = {});
// The same as text: "cpu" or "hip:N".
std::string resolve_device_spec(const std::string& spec, std::string* why = nullptr,
                                const std::filesystem::path& hip_plugin = {});
// A device in this process. Only for trusted code (tests, benchmarks, the worker itself).
std::unique_ptr<Device> make_device(const std::string& spec, const DeviceOptions& options = {});
// A device in a child worker process: candidate code runs there, crashes and hangs come back as
// failed results. This is what the engine uses.
std::unique_ptr<Device> make_isolated_device(const std::string& spec,
                                             const DeviceOptions& options = {});

}  // namespace kta::engine
