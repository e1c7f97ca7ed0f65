// PythonDevice: the Device interface over a python runner, so that torch modules and functions
// and Triton launchers go through the engine's own steps (alloc/upload/poison/download in
// DeviceSet, the interleaved protocol in step_performance) unchanged. compile = import the file
// and resolve the callable; run = call it on the buffers; timed = one sample of a batch of calls
// timed by the runner's own clock (CUDA events on a GPU, the process's CPU time on the cpu device).
// Buffers live in shared memory mapped by both processes: upload/download/fill are memcpy/memset
// here, plus a staged copy to and from the GPU in the runner, outside any timing.
//
// Several devices share one RunnerProcess (a RunnerPool keeps one per role for the whole run),
// so Python start-up (~1-2 s for `import torch`) is paid once per run, not per task.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <string>

#include "engine/device/device.h"
#include "engine/device/python/runner_process.h"

namespace kta::engine {

class PythonDevice : public Device {
 public:
  PythonDevice(std::shared_ptr<RunnerProcess> runner, const DeviceOptions& options);
  ~PythonDevice() override;

  DeviceInfo info() const override;
  Buffer alloc(size_t bytes) override;
  void free(Buffer b) override;
  void upload(Buffer dst, const void* src, size_t bytes) override;
  void download(void* dst, Buffer src, size_t bytes) override;
  void fill(Buffer dst, uint8_t byte) override;
  // On a GPU one request: the runner copies between its device tensors.
  void copy(std::span<const BufferCopy> copies) override;

  // flavor torch or triton, mode module or function (CompileRequest::flavor/mode).
  CompileResult compile(const CompileRequest& request) override;
  // Python entries have no kernel mode: a kernel launch fails with a named reason.
  LaunchResult run(const Invocation& invocation) override;
  TimedResult timed(std::span<const Invocation> batch, bool flush) override;
  // Triton entries on a GPU: the runner compiles every call's kernel specializations in worker
  // processes of its own (kta_runner.py, "warm").
  void warm_up(uint64_t module, std::span<const LauncherArgs> calls) override;
  // Waits for the runner's warm-up workers (calls are synchronous already).
  void synchronize() override;

  RunnerProcess& runner() { return *runner_; }

 private:
  nlohmann::json call_request(uint64_t module, const LauncherArgs& args, std::string* error);
  LaunchResult result_of(const nlohmann::json& reply) const;
  // Buffers whose newest bytes are on the GPU side of the runner are fetched before a read.
  void fetch(uint64_t id);

  std::shared_ptr<RunnerProcess> runner_;
  DeviceOptions options_;
  struct State {
    bool host_newer = true;     // written here since the runner last staged it in
    bool device_newer = false;  // written by a call since the last fetch
    uint64_t generation = 0;    // the runner child that holds the device copy
  };
  void mark_called(const LauncherArgs& args, bool ok);
  std::map<uint64_t, State> buffers_;
};

// One runner per role for a whole run (trusted: reference and baseline; candidate: the agent's
// Python), so that the candidate's code never shares a process with reference outputs. A role's
// runner starts on a thread of its own as soon as its first device is made (`import torch` and
// the GPU's set-up take seconds): both roles' start-ups overlap each other and the host work
// that comes before the first request.
class RunnerPool {
 public:
  explicit RunnerPool(RunnerOptions options) : options_(std::move(options)) {}
  ~RunnerPool();
  RunnerPool(const RunnerPool&) = delete;
  RunnerPool& operator=(const RunnerPool&) = delete;
  std::unique_ptr<Device> device(DeviceRole role, const DeviceOptions& options);
  RunnerStats stats() const;  // summed over the roles' runners

 private:
  RunnerOptions options_;
  mutable std::mutex mu_;
  std::map<DeviceRole, std::shared_ptr<RunnerProcess>> runners_;
  // A child dies with the thread that started it (the sandbox's --die-with-parent is
  // PR_SET_PDEATHSIG), so each starting thread then waits for the pool to close.
  std::promise<void> closing_;
  std::shared_future<void> closed_ = closing_.get_future().share();
  std::vector<std::future<void>> starts_;
};

}  // namespace kta::engine
