// RunnerProcess: one python runner child (kta_runner.py) and the engine's side of protocol
// version 1 (docs/python.md). Requests are JSON messages over a SOCK_SEQPACKET socket on the
// child's fd 3; buffer memory is memfds passed along with `alloc` requests, mapped on both
// sides, never sent as text. The child's stdout and stderr go to a log (a memfd) so that module
// prints cannot corrupt the protocol. Every request has a deadline: past it the child is killed
// and the request fails with "timeout after N s"; a child that dies fails its request with a
// named reason. Either way the next request starts a fresh child, which gets every live buffer
// and every module again, so a crash costs one request, not the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/device/python/find_python.h"
#include "engine/ipc/child_channel.h"
#include "engine/ipc/shared_buffer.h"
#include "engine/ipc/worker_view.h"
#include "engine/settings/settings.h"

namespace kta::engine {

struct RunnerOptions {
  DeviceSpec device;             // cpu: torch on the host; hip:N: torch's cuda:N
  std::string python;            // empty: find_python(search)
  PythonSearch search;           // where to look for an interpreter ($KTA_PYTHON, $PATH)
  std::filesystem::path script;  // $KTA_RUNNER; empty: find_runner_script()
  // The engine's environment (Settings::environment): the runner gets only the few variables
  // Python and the GPU runtime read of it.
  std::map<std::string, std::string> environment;
  double start_timeout_s = 120;  // start-up: interpreter, `import torch`, device set-up
  // The persistent compile caches of the runners ($KTA_CACHE_DIR/python): a RunnerPool gives
  // each role the folder of its own name beneath (trusted/, candidate/); empty: none.
  std::filesystem::path cache_root;
  // This runner's own persistent Triton cache, shown read-write to it alone (the other role's
  // runner does not see it); the runner keys it further by Triton version, device and module
  // source (docs/python.md, "Compile caches"). Empty: Triton's caches live in the runner's
  // private /tmp and go with it.
  std::filesystem::path compile_cache;
  int protocol_version = 1;  // what the engine speaks; tests change it
};

// The runner's options from the environment's settings ($KTA_PYTHON, $PATH, $KTA_RUNNER and the
// environment passed on); the CLI, tests and benchmarks share this mapping.
RunnerOptions runner_options(const Settings& settings);

// Counters for benchmarks and reports: how often the child started and what that cost.
struct RunnerStats {
  int starts = 0;
  double start_seconds = 0;
  uint64_t requests = 0;
  std::string by_role;  // RunnerPool: "trusted 1, candidate 1" (a restart counts as a start)
};

class RunnerProcess {
 public:
  explicit RunnerProcess(RunnerOptions options);
  ~RunnerProcess();
  RunnerProcess(const RunnerProcess&) = delete;
  RunnerProcess& operator=(const RunnerProcess&) = delete;

  // Starts the child now if it is not running (the caller need not wait for it: RunnerPool runs
  // it on a thread of its own); a failure is left for the next request to meet and report.
  void prestart();

  // One request. Never throws for runner failures: the reply is {"ok": false, "error": ...}, with
  // "restarted": true when the child was lost (timeout, exit, protocol error).
  nlohmann::json request(const nlohmann::json& q, double timeout_s);

  // Buffers: engine-side mappings of shared memory the child maps too.
  uint64_t alloc(size_t bytes);
  void free(uint64_t id);
  uint8_t* data(uint64_t id);
  size_t bytes(uint64_t id) const;

  // Modules: the compile request is kept and replayed into a fresh child. Returns the engine-side
  // id, or 0 with the reply's error (and whether the flavor is unavailable here).
  uint64_t compile(const nlohmann::json& q, double timeout_s, nlohmann::json* reply);
  // The child's id of an engine-side module, recompiling it in a fresh child when needed.
  std::optional<int64_t> module_id(uint64_t id, double timeout_s, std::string* error);
  // Starts compiling a module's specializations ahead for `calls` (the "warm" request) and
  // whether workers started; settle() waits for them (at most `timeout_s`) before the module's
  // first call. A child started since has none to wait for.
  bool warm(uint64_t id, const nlohmann::json& calls, double timeout_s);
  void settle(uint64_t id, double timeout_s);
  void settle_all(double timeout_s);  // every module's

  bool zero_copy() const { return zero_copy_; }  // the child's tensors are the shared memory
  uint64_t generation() const { return child_.generation(); }  // bumped by every start
  const nlohmann::json& hello() const { return hello_; }
  RunnerStats stats() const { return stats_; }
  std::string log_tail() const;
  // Serializes requests from the devices that share this child.
  std::mutex& mutex() { return mu_; }

 private:
  std::string start();  // empty on success, else why not
  ipc::SpawnSpec command(const std::string& python, const std::filesystem::path& script) const;
  void stop() { child_.stop(); }
  std::string ensure();
  // A fresh child's setup: the hello and its version, then every buffer mapped again.
  std::string greet(const std::string& python);
  nlohmann::json lost(const std::string& why);
  std::optional<nlohmann::json> exchange(const nlohmann::json& q, double timeout_s, int fd,
                                         std::string* failure);

  struct Shared : ipc::SharedBuffer {
    uint64_t mapped = 0;  // generation of the child that mapped it; 0: not mapped
  };
  struct Module {
    nlohmann::json request;
    int64_t child_id = 0;
    uint64_t generation = 0;
    uint64_t warming = 0;  // generation of the child whose warm-up workers run; 0: none
  };

  RunnerOptions options_;
  std::mutex mu_;
  ipc::StagingFolder sources_;  // copies of the modules' folders, all the runner sees of them
  ipc::ChildChannel child_{"python runner", "kta-runner-log"};
  bool zero_copy_ = true;
  uint64_t next_buffer_ = 1;
  nlohmann::json hello_;
  std::map<uint64_t, Shared> buffers_;
  std::vector<Module> modules_;
  RunnerStats stats_;
};

}  // namespace kta::engine
