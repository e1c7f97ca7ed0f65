// The cpu device: runs HIP kernels on the host. Buffers are host memory; compile() turns a HIP
// source into a shared object with the host compiler and kta's HIP device model (cached on disk
// by content hash) and loads it; launches run on the prebuilt cpu runtime's block scheduler.
// Runs candidate code in the calling process: the engine reaches it through a worker process
// (engine/worker), never directly.
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "engine/device/cpu/ceilings.h"
#include "engine/device/cpu/kernel_build.h"
#include "engine/device/cpu/kernel_signature.h"
#include "engine/device/device.h"

namespace kta::engine::cpu {

class CpuDevice : public Device {
 public:
  explicit CpuDevice(const DeviceOptions& options = {});
  ~CpuDevice() override;

  DeviceInfo info() const override;
  Buffer alloc(size_t bytes) override;
  void free(Buffer b) override;
  void upload(Buffer dst, const void* src, size_t bytes) override;
  void download(void* dst, Buffer src, size_t bytes) override;
  void fill(Buffer dst, uint8_t byte) override;
  void copy(std::span<const BufferCopy> copies) override;
  CompileResult compile(const CompileRequest& request) override;
  LaunchResult run(const Invocation& invocation) override;
  TimedResult timed(std::span<const Invocation> batch, bool flush) override;
  // Loads a module built elsewhere: the engine builds (build_module), the worker that runs
  // candidate code only loads; `build.library` is any path dlopen takes (/proc/self/fd/N).
  CompileResult load_built(const CompileRequest& request, const BuildResult& build);
  void synchronize() override {}

  // Memory owned elsewhere (the worker maps the engine's shared memory) used as a buffer.
  Buffer adopt(uint64_t id, void* data, size_t bytes);
  void* data(Buffer b) const;
  // True when AddressSanitizer is loaded into this process (sanitize compiles need it).
  static bool sanitizer_loaded();

 private:
  struct Module;
  struct Memory {
    void* data = nullptr;
    size_t bytes = 0;
    bool owned = false;
  };
  Module* find_module(uint64_t id, std::string* error);
  const Memory* find_memory(Buffer b, std::string* error) const;
  LaunchResult launch_once(Module& m, const std::vector<KernelArg>& args,
                           const LaunchConfig& config);
  LaunchResult call_once(Module& m, const LauncherArgs& args);
  LaunchResult run_once(Module& m, const Invocation& invocation);
  static std::set<pid_t> child_pids();
  void reap_children(const std::set<pid_t>& before, LaunchResult& r, double* seconds);
  void flush_caches();

  DeviceOptions options_;
  std::map<uint64_t, Memory> memory_;
  std::map<uint64_t, std::unique_ptr<Module>> modules_;
  uint64_t next_buffer_ = 1, next_module_ = 1;
  std::vector<char> flush_buffer_;
};

// The AddressSanitizer runtime (libasan.so) of the host compiler, for preloading into the
// process that runs sanitized modules; empty with *error naming the compiler when there is none.
std::string sanitizer_runtime(const DeviceOptions& options, std::string* error);

}  // namespace kta::engine::cpu
