// The hip device: runs HIP kernels on a GPU through the HIP runtime API (AMD, or NVIDIA through
// HIP's nvidia platform). Kernel mode compiles with hipRTC (rtc/hiprtc_compiler.h) and launches
// with hipModuleLaunchKernel; launcher mode loads a shared library built by nvcc/hipcc. Timing
// uses events on one stream; batch samples replay a captured graph. Lives in libkta_hip.so,
// which the worker opens at run time (hip_plugin_loader.h).
#pragma once

#include <hip/hip_runtime.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/device/hip/plugin/clock_reader.h"

namespace kta::engine::hip {

class HipDevice : public Device {
 public:
  // Throws std::runtime_error when the GPU cannot be opened.
  HipDevice(int ordinal, const DeviceOptions& options);
  ~HipDevice() override;

  DeviceInfo info() const override { return info_; }
  Buffer alloc(size_t bytes) override;
  void free(Buffer b) override;
  void upload(Buffer dst, const void* src, size_t bytes) override;
  void download(void* dst, Buffer src, size_t bytes) override;
  void fill(Buffer dst, uint8_t byte) override;
  void copy(std::span<const BufferCopy> copies) override;
  CompileResult compile(const CompileRequest& request) override;
  LaunchResult run(const Invocation& invocation) override;
  TimedResult timed(std::span<const Invocation> batch, bool flush) override;
  void synchronize() override;

  // The architecture kernels are compiled for ("sm_90", "gfx90a").
  const std::string& arch() const { return arch_; }
  // Device address of a buffer (tests and benchmarks compare against plain runtime calls).
  void* address(Buffer b) const;

 private:
  struct Module;
  struct Graph;
  struct Memory {
    void* ptr = nullptr;
    size_t bytes = 0;
  };

  Module* find_module(uint64_t id, bool launcher, std::string* error);
  void* find_memory(Buffer b, std::string* error) const;
  void require_usable() const;
  // Makes this device's context current on the calling thread (the driver API needs it; the
  // worker may call from any thread).
  void bind() const { (void)hipSetDevice(ordinal_); }
  CompileResult load_kernel(const CompileRequest& request);
  CompileResult load_launcher(const CompileRequest& request);
  std::string validate(const LaunchConfig& config) const;
  // Fills `slots`/`params` for one launch; returns the error when the arguments are unusable.
  std::string kernel_params(const Module& m, const std::vector<KernelArg>& args,
                            std::vector<uint64_t>* slots, std::vector<void*>* params) const;
  std::string make_call(const LauncherArgs& args, std::vector<kta_tensor>* tensors,
                        std::vector<kta_param>* params, kta_call* call) const;
  // Enqueues one launch/call on `stream` without waiting; returns the error of the enqueue.
  std::string enqueue_launch(Module& m, const std::vector<KernelArg>& args,
                             const LaunchConfig& config, hipStream_t stream);
  std::string enqueue_call(Module& m, const LauncherArgs& args, hipStream_t stream);
  // Waits for `stream`; turns a device error into a failed result, marking the context lost
  // when the error is sticky.
  LaunchResult finish(hipStream_t stream, const std::string& what);
  LaunchResult device_error(hipError_t e, const std::string& what);
  LaunchResult failed(std::string why) const;
  void flush_l2();
  // Queues a kernel that keeps the GPU busy while the host queues a sample's start event and
  // timed work, so the events do not time an idle GPU waiting for the host (a graph launch takes
  // microseconds to reach the GPU). Sized from the host's recent enqueue times.
  void enqueue_guard(hipStream_t stream);
  void note_enqueue(double host_seconds);
  void measure_peak_bandwidth();
  double measure_timer_resolution();
  // Records the clocks right after a timed sample, outside its events.
  void record_clocks(TimedResult& t);
  LaunchResult launch_kernel(uint64_t module, const KernelLaunch& k);
  LaunchResult call_launcher(uint64_t module, const LauncherArgs& args);
  TimedResult timed_kernels(Module& m, std::span<const Invocation> batch, bool flush);
  TimedResult timed_calls(Module& m, std::span<const Invocation> batch, bool flush);
  // Enqueues one invocation of `m` on `stream`.
  std::string enqueue(Module& m, const Invocation& inv, hipStream_t stream);
  // The batch captured as one graph (made on first use, keyed by its arguments); null with
  // `error` set where capture fails.
  Graph* graph_for(Module& m, std::span<const Invocation> batch, std::string* error);

  int ordinal_ = 0;
  DeviceOptions options_;
  DeviceInfo info_;
  std::string arch_;
  hipStream_t stream_ = nullptr;
  hipEvent_t start_ = nullptr, stop_ = nullptr;
  std::map<uint64_t, Memory> memory_;
  std::map<uint64_t, std::unique_ptr<Module>> modules_;
  uint64_t next_buffer_ = 1, next_module_ = 1;
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
  unsigned flush_round_ = 0;
  std::unique_ptr<Module> guard_;  // compiled on first use; stays null if that failed
  bool guard_tried_ = false;
  double clock_hz_ = 0;                  // max SM clock, for the guard's cycle count
  std::vector<double> enqueue_seconds_;  // the host's recent enqueue times, newest last
  std::string lost_;                     // set once a sticky GPU error poisoned the context
  std::unique_ptr<ClockReader> clocks_;
};

}  // namespace kta::engine::hip
