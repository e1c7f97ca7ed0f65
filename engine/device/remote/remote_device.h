// RemoteDevice: the engine's handle on a device that lives in a kta-worker child process.
// Every call is forwarded over the worker protocol; buffers are shared memory (memfd) mapped
// by both processes, so uploads and downloads never cross the socket and survive a worker
// restart. A crash, a hang past the time limit or memory exhaustion in the worker comes back as
// a failed result with the reason, and the next request starts a fresh worker, reloading
// compiled modules from the disk cache as they are used. The worker runs in a view of its own
// (engine/ipc/worker_view.h): on the cpu device the engine builds modules and the worker only
// loads them, so neither the sources' folders nor the compile cache are in the worker's reach; a
// GPU worker compiles from staged copies, and its code is kept by the engine (code_store.h).
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engine/device/device.h"
#include "engine/ipc/child_channel.h"
#include "engine/ipc/shared_buffer.h"
#include "engine/ipc/worker_view.h"

namespace kta::engine::remote {

class RemoteDevice : public Device {
 public:
  // Starts the worker; throws std::runtime_error when it cannot.
  explicit RemoteDevice(const DeviceOptions& options = {});
  ~RemoteDevice() override;
  RemoteDevice(const RemoteDevice&) = delete;
  RemoteDevice& operator=(const RemoteDevice&) = delete;

  DeviceInfo info() const override { return info_; }
  Buffer alloc(size_t bytes) override;
  void free(Buffer b) override;
  void upload(Buffer dst, const void* src, size_t bytes) override;
  void download(void* dst, Buffer src, size_t bytes) override;
  void fill(Buffer dst, uint8_t byte) override;
  void copy(std::span<const BufferCopy> copies) override;
  void together(const std::function<void()>& f) override;
  CompileResult compile(const CompileRequest& request) override;
  LaunchResult run(const Invocation& invocation) override;
  TimedResult timed(std::span<const Invocation> batch, bool flush) override;
  void synchronize() override;

  // The worker's process id, -1 when none runs (tests use it to check restarts).
  pid_t worker_pid() const { return worker_.pid(); }
  // How many workers this device started so far.
  int workers_started() const { return started_; }
  // How many requests went to workers so far (tests count round trips with it).
  int requests_sent() const { return requests_; }

 private:
  using Shared = ipc::SharedBuffer;
  struct ModuleRecord {
    CompileRequest request;
    uint64_t remote = 0;
    uint64_t generation = 0;
  };
  using json = nlohmann::json;

  void start(bool asan);
  void stop() { worker_.stop(); }
  std::string ensure(bool asan);
  ipc::SpawnSpec worker_command(bool asan) const;
  std::optional<json> build_and_load(const CompileRequest& req, std::string* failure);
  std::optional<json> compile_request(const CompileRequest& req, std::string* failure);
  // One compile request to a GPU worker, an exchange's code in a memfd beside it.
  std::optional<CompileResult> send_compile(const CompileRequest& req, std::string* failure);
  // A fresh worker's setup: the hello, then every buffer mapped again.
  std::string greet();
  // One request/reply; on failure (crash, timeout, a reply that is not JSON) the worker is gone
  // and *failure says why.
  std::optional<json> request(const json& q, double timeout_s, std::string* failure, int fd = -1);
  std::string why_worker_ended(int status, const std::string& log) const;
  bool running() const { return worker_.running(); }
  std::string load(ModuleRecord& m, uint64_t* remote);
  const Shared& shared(Buffer b, size_t bytes) const;
  LaunchResult lost(const std::string& why);
  LaunchResult checked(LaunchResult r);
  // Loads `module` in the worker if needed and sends make_request(its id in the worker).
  TimedResult run_module(uint64_t module, const std::function<json(uint64_t remote)>& make_request,
                         double timeout_s, bool timed);
  bool staged() const { return info_.own_memory; }
  void stage(const json& q);
  void send_pending(bool reopen);

  DeviceOptions options_;
  DeviceInfo info_;
  // Copies of the sources a GPU worker compiles, the only ones it sees (before worker_: it
  // outlives the worker that reads it).
  ipc::StagingFolder sources_;
  ipc::ChildChannel worker_{"worker", "kta-worker-log"};
  bool asan_ = false;
  // No candidate code has run in the worker since it started (no kernel run, no launcher
  // loaded): what it reports as built may be kept across runs (code_store.h).
  bool worker_clean_ = false;
  int started_ = 0;
  int requests_ = 0;
  uint64_t next_buffer_ = 1, next_module_ = 1;
  std::map<uint64_t, Shared> buffers_;
  std::map<uint64_t, ModuleRecord> modules_;
  // Inside together(): the uploads and fills not sent yet, in order.
  std::optional<json> pending_;
};

// The kta-worker binary this process would start (DeviceOptions::worker, which Settings fills
// from $KTA_WORKER; else next to the running executable, else the build tree's).
std::string find_worker(const DeviceOptions& options);

}  // namespace kta::engine::remote
